package tunnels_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/tunnels"
)

type echoIn struct {
	Text string `json:"text"`
}

// localMCP is the local MCP server a developer exposes: echo, and slow,
// which blocks until release is closed or its call is cancelled.
func localMCP(started chan<- struct{}, release <-chan struct{}) http.Handler {
	s := mcp.NewServer(&mcp.Implementation{Name: "local", Version: "0.0.1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo text"},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "Wait"},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
			started <- struct{}{}
			select {
			case <-release:
			case <-ctx.Done():
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
		})
	// Stateless: sessions the double abandons when a tunnel dies (it cannot
	// send their DELETE any more) leave nothing running in the test.
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true})
}

func callEcho(t *testing.T, c *projectops.Client, projectID, serverID string) (*mcp.CallToolResult, error) {
	t.Helper()
	return c.Servers.CallTool(t.Context(), projectID, serverID,
		servers.CallToolParams{ToolName: "echo", Parameters: map[string]any{"text": "hi"}})
}

func text(r *mcp.CallToolResult) string {
	if r == nil || len(r.Content) != 1 {
		return ""
	}
	tc, _ := r.Content[0].(*mcp.TextContent)
	if tc == nil {
		return ""
	}
	return tc.Text
}

// A local MCP server exposed through a tunnel is validated and called
// through the double like any saved server; revoking the tunnel during a
// call fails the call, and a revived tunnel serves again.
func TestMCPServerThroughTunnel(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.WS.ProjectID
	started, release := make(chan struct{}, 1), make(chan struct{})
	defer close(release)
	local := localMCP(started, release)
	g := create(t, f, "local")
	serve(t, f, g, local)

	v, err := f.C.Servers.Validate(t.Context(), p, g.ServerID)
	if err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if !v.Success || v.InitInfo == nil || v.InitInfo.ServerVersion == nil || v.InitInfo.ServerVersion.Name != "local" ||
		v.InitInfo.Transport != servers.InitTransportStreamableHTTP {
		t.Fatalf("Validate = %+v", v)
	}
	r, err := callEcho(t, f.C, p, g.ServerID)
	if err != nil || text(r) != "echo: hi" {
		t.Fatalf("CallTool = %q, %v", text(r), err)
	}

	// Revoke while a call is in flight.
	callErr := make(chan error, 1)
	go func() {
		_, err := f.C.Servers.CallTool(context.Background(), p, g.ServerID, servers.CallToolParams{ToolName: "slow"})
		callErr <- err
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("slow call did not start")
	}
	if _, err := f.C.Tunnels.Close(t.Context(), p, g.ServerID); err != nil {
		t.Fatal(err)
	}
	var errs []error
	select {
	case err := <-callErr:
		wantError(t, err, projectops.CodeServerUnreachable, true)
		errs = append(errs, err)
	case <-time.After(10 * time.Second):
		t.Fatal("the call in flight did not fail on revoke")
	}
	// The dead URL answers like a server that is not there.
	_, err = callEcho(t, f.C, p, g.ServerID)
	wantError(t, err, projectops.CodeServerUnreachable, true)
	_, err = f.C.Servers.Validate(t.Context(), p, g.ServerID)
	wantError(t, err, projectops.CodeServerUnreachable, true)
	errs = append(errs, err)

	// Revive: same server, a new secret, served again.
	g2 := create(t, f, "local")
	serve(t, f, g2, local)
	r, err = callEcho(t, f.C, p, g2.ServerID)
	if err != nil || text(r) != "echo: hi" || g2.ServerID != g.ServerID {
		t.Fatalf("after revive: %q, %v", text(r), err)
	}
	for _, e := range errs {
		for _, secret := range []string{secretOf(t, g), g.ConnectToken, secretOf(t, g2)} {
			if strings.Contains(e.Error(), secret) {
				t.Errorf("error text contains a secret: %v", e)
			}
		}
	}
}

// A go-sdk client reaches the local server through the public URL directly.
func TestMCPClientOnPublicURL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	serve(t, f, g, localMCP(nil, nil))
	cs := connect(t, g.URL, f.Srv.Client())
	r, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
	if err != nil || text(r) != "echo: hi" {
		t.Fatalf("CallTool = %q, %v", text(r), err)
	}
}

func connect(tb testing.TB, endpoint string, hc *http.Client) *mcp.ClientSession {
	tb.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		tb.Fatalf("Connect: %v", tunnels.RedactURL(err.Error()))
	}
	tb.Cleanup(func() { _ = cs.Close() })
	return cs
}
