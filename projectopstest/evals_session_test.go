package projectopstest_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// An eval run connects to its servers once and disconnects when it ends,
// as the service's run does (public source, mcpjam-inspector/server/routes/
// v1/evals.ts: one client manager per run, disconnectAllServers once the
// run's execution settles): every MCP request of the run, across its
// iterations, arrives on one session, closed with the run.
func TestEvalRunUsesOneMCPSession(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalParallelism(2))
	var mu sync.Mutex
	sessions := map[*mcp.ServerSession]int{}
	m := mcp.NewServer(&mcp.Implementation{Name: "counted", Version: "1"}, nil)
	mcp.AddTool(m, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Echo: " + in.Message}}}, nil, nil
	})
	m.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok && method != "initialize" && method != "notifications/initialized" {
				mu.Lock()
				sessions[ss]++
				mu.Unlock()
			}
			return next(ctx, method, req)
		}
	})
	id, err := f.srv.AddServer(projectopstest.ServerSpec{ProjectID: f.ws.ProjectID, Name: "counted", MCPServer: m})
	if err != nil {
		t.Fatal(err)
	}
	rc := f.create(t, evals.RunParams{ServerIDs: []string{id},
		Tests: []evals.Test{echoTest("a", "x"), echoTest("b", "y"), echoTest("c", "z")}})
	if run := f.awaitRun(t, rc.RunID); run.Status != evals.StatusCompleted {
		t.Fatalf("run = %+v", run)
	}
	mu.Lock()
	n, calls := len(sessions), 0
	for _, c := range sessions {
		calls += c
	}
	mu.Unlock()
	if n != 1 || calls < 4 { // tools/list and three tools/call
		t.Errorf("the run's %d MCP requests came on %d sessions, want one session", calls, n)
	}
	deadline := time.Now().Add(5 * time.Second)
	for f.srv.MCPSessions() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("MCPSessions = %d after the run ended, want 0", f.srv.MCPSessions())
		}
		time.Sleep(5 * time.Millisecond)
	}
}
