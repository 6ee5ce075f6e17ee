package projectopstest_test

import (
	"context"
	"strconv"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
)

// The service runs every server operation on its own MCP connection: the
// v1 adapter calls runEphemeralConnection (public source,
// mcpjam-inspector/server/routes/web/auth.ts at 2026-07-09), which connects,
// runs the one operation and, whatever happens, disconnects every server.
// So nothing an MCP server keeps per session (session-scoped resources such
// as server-everything's gzip-file-as-resource output, a logging level,
// subscriptions, a counter) survives from one API request to the next, and
// the double's second tools/call here must be the first of its session.
func TestEachOperationGetsAFreshMCPSession(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	for i, got := range callsInSession(t, srv) {
		if got != "1" {
			t.Errorf("API call %d ran as call %s of its MCP session, want 1 (each operation connects afresh on the service)", i+1, got)
		}
	}
	if n := srv.MCPSessions(); n != 0 {
		t.Errorf("MCPSessions after the calls = %d, want 0", n)
	}
}

// WithPooledMCPSessions trades that fidelity for speed: one session per
// user and server, kept across requests.
func TestPooledMCPSessionsKeepOneSession(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithPooledMCPSessions())
	got := callsInSession(t, srv)
	if got[0] != "1" || got[1] != "2" {
		t.Errorf("calls ran as %v of their MCP session, want [1 2] (one pooled session)", got)
	}
	if n := srv.MCPSessions(); n != 1 {
		t.Errorf("MCPSessions after the calls = %d, want the 1 kept", n)
	}
}

// callsInSession saves a server whose tool answers how many calls its
// session has seen, calls it twice through the API and returns the
// answers.
func callsInSession(t *testing.T, srv *projectopstest.Server) [2]string {
	t.Helper()
	var mu sync.Mutex
	calls := map[*mcp.ServerSession]int{}
	s := mcp.NewServer(&mcp.Implementation{Name: "stateful", Version: "1.0.0"}, nil)
	s.AddTool(&mcp.Tool{Name: "calls-in-session", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			mu.Lock()
			calls[req.Session]++
			n := calls[req.Session]
			mu.Unlock()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strconv.Itoa(n)}}}, nil
		})
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "stateful", MCPServer: s}))
	tg := inproc(srv)
	var out [2]string
	for i := range out {
		r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/tools/call", ws.APIKey, `{"toolName":"calls-in-session"}`)
		var got struct {
			Content []struct{ Text string }
		}
		r.decode(t, &got)
		if len(got.Content) != 1 {
			t.Fatalf("API call %d: content %v", i+1, got.Content)
		}
		out[i] = got.Content[0].Text
	}
	return out
}
