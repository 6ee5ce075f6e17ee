package servers_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// benchDouble is a double without rate limiting and an SDK client on its
// in-process transport.
func benchDouble(b *testing.B, opts ...projectopstest.Option) (*projectopstest.Server, *projectops.Client) {
	b.Helper()
	srv := projectopstest.NewTestServer(b, append([]projectopstest.Option{projectopstest.WithRateLimit(0, 0)}, opts...)...)
	c, err := srv.NewClient()
	if err != nil {
		b.Fatal(err)
	}
	return srv, c
}

// BenchmarkCallTool compares tools/call through the SDK and the double
// (in-process transport, in-process MCP server, a session of its own per
// call: connect, initialize, call, close, as the service connects afresh
// for each operation) with the same call made directly on an open go-sdk
// client session. The old goal, sdk ≤ 1.5× direct, was for a pooled
// session; per-call sessions cost about twice the direct call.
func BenchmarkCallTool(b *testing.B) {
	args := func() map[string]any { return map[string]any{"query": "bench"} }
	b.Run("direct", func(b *testing.B) {
		ctx := context.Background()
		st, ct := mcp.NewInMemoryTransports()
		ss, err := fullServer().Connect(ctx, st, nil)
		if err != nil {
			b.Fatal(err)
		}
		client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
		cs, err := client.Connect(ctx, ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = cs.Close(); _ = ss.Close() })
		b.ReportAllocs()
		for b.Loop() {
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: args()}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sdk+double", func(b *testing.B) {
		srv, c := benchDouble(b)
		p := srv.Default().ProjectID
		id, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "full", MCPServer: fullServer()})
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.Servers.CallTool(ctx, p, id, servers.CallToolParams{ToolName: "echo", Parameters: args()}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFirstCall compares a first call on a newly saved server with a
// later call on the same one. Since every operation on an in-process (or
// HTTP, SSE) server gets a session of its own, both connect, initialize,
// call and close: "warm" is no longer cheaper (only stdio sessions are
// kept).
func BenchmarkFirstCall(b *testing.B) {
	call := func(b *testing.B, c *projectops.Client, p, id string) {
		if _, err := c.Servers.CallTool(context.Background(), p, id, servers.CallToolParams{ToolName: "echo"}); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("cold", func(b *testing.B) {
		srv, c := benchDouble(b, projectopstest.WithMCPIdleTimeout(time.Second))
		p := srv.Default().ProjectID
		mcpSrv := fullServer()
		i := 0
		for b.Loop() {
			b.StopTimer()
			i++
			id, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "s" + strconv.Itoa(i), MCPServer: mcpSrv})
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			call(b, c, p, id)
		}
	})
	b.Run("warm", func(b *testing.B) {
		srv, c := benchDouble(b)
		p := srv.Default().ProjectID
		id, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "s", MCPServer: fullServer()})
		if err != nil {
			b.Fatal(err)
		}
		call(b, c, p, id)
		for b.Loop() {
			call(b, c, p, id)
		}
	})
}
