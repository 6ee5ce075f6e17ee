package projectopstest_test

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// Close gives an in-process request in flight ShutdownGrace to finish, as
// it gives a loopback one: a tool call cut at once answered a false 504
// TIMEOUT.
func TestCloseGivesInProcessRequestsTheGrace(t *testing.T) {
	t.Parallel()
	inFlight := make(chan struct{}, 1)
	ms := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
	mcp.AddTool(ms, &mcp.Tool{Name: "slow"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		select {
		case inFlight <- struct{}{}:
		default:
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(300 * time.Millisecond):
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	srv, err := projectopstest.NewServer(projectopstest.WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	ws := srv.Default()
	id, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "s", MCPServer: ms})
	if err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Servers.ListTools(t.Context(), ws.ProjectID, id, nil); err != nil { // the session is up
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := c.Servers.CallTool(context.Background(), ws.ProjectID, id, servers.CallToolParams{ToolName: "slow"})
		errc <- err
	}()
	select {
	case <-inFlight: // the call is in flight: its tool is running
	case err := <-errc:
		t.Fatalf("the call ended before Close: %v", err)
	}
	start := time.Now()
	srv.Close()
	if err := <-errc; err != nil {
		t.Errorf("a 300 ms call in flight at Close failed: %v", err)
	}
	if d := time.Since(start); d > projectopstest.ShutdownGrace+time.Second {
		t.Errorf("Close took %v", d)
	}
}
