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
// (in-process transport, in-process MCP server) with the same call made
// directly on an open go-sdk client session: sdk+double with a session of
// its own per call (connect, initialize, call, close, as the service
// connects afresh for each operation), sdk+double/pooled on one kept
// session (WithPooledMCPSessions; goal: ≤ 1.5× direct).
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
	sdk := func(b *testing.B, opts ...projectopstest.Option) {
		srv, c := benchDouble(b, opts...)
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
	}
	b.Run("sdk+double", func(b *testing.B) { sdk(b) })
	b.Run("sdk+double/pooled", func(b *testing.B) { sdk(b, projectopstest.WithPooledMCPSessions()) })
}

// BenchmarkFirstCall shows the pool's effect under WithPooledMCPSessions:
// a first call on a server no session exists for (connect + initialize +
// call) against a call on the warm kept session. (Without the option every
// call on an in-process, HTTP or SSE server is a first call.)
func BenchmarkFirstCall(b *testing.B) {
	call := func(b *testing.B, c *projectops.Client, p, id string) {
		if _, err := c.Servers.CallTool(context.Background(), p, id, servers.CallToolParams{ToolName: "echo"}); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("cold", func(b *testing.B) {
		srv, c := benchDouble(b, projectopstest.WithPooledMCPSessions(), projectopstest.WithMCPIdleTimeout(time.Second))
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
		srv, c := benchDouble(b, projectopstest.WithPooledMCPSessions())
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
