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
// runs the one operation and `finally { await manager.disconnectAllServers() }`.
// So nothing an MCP server keeps per session (session-scoped resources such
// as server-everything's gzip-file-as-resource output, a logging level,
// subscriptions, a counter) survives from one API request to the next.
//
// The double pools one MCP session per user and saved server for minutes
// (DefaultMCPIdleTimeout), so a later API call sees the state an earlier
// call left in the session: the second tools/call here reports the second
// call in the same session, where the service would start a new one.
func TestEachOperationGetsAFreshMCPSession(t *testing.T) {
	t.Parallel()
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
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "stateful", MCPServer: s}))
	tg := inproc(srv)
	for i := 1; i <= 2; i++ {
		r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/tools/call", ws.APIKey, `{"toolName":"calls-in-session"}`)
		var got struct {
			Content []struct{ Text string }
		}
		r.decode(t, &got)
		if len(got.Content) != 1 || got.Content[0].Text != "1" {
			t.Errorf("API call %d ran as call %v of its MCP session, want 1 (each operation connects afresh on the service)", i, got.Content)
		}
	}
}
