package projectopstest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/projectops/projectops-go/internal/proctest"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// stubbornPeerEnv makes the test binary a stdio MCP server stuck in its
// shutdown: it ignores SIGTERM, starts a helper process (its grandchild
// from the double, in its process group) and lingers after its stdin
// closes. Its "block" tool ignores its cancellation, after creating the
// file named by blockedEnv.
const (
	stubbornPeerEnv = "PROJECTOPSTEST_STUBBORN_PEER"
	blockedEnv      = "PROJECTOPSTEST_STUBBORN_BLOCKED"
)

func init() {
	if os.Getenv(stubbornPeerEnv) == "" {
		return
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "stubborn", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "block"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		_ = os.WriteFile(os.Getenv(blockedEnv), nil, 0o600)
		time.Sleep(time.Hour)
		return nil, nil, nil
	})
	proctest.ServeStubborn(s, "")
}

// Close (its doc: it waits for everything the server owns) leaves no
// stdio server running, nor any process it started, when the server
// ignores its stdin closing and SIGTERM, with or without a call in flight
// that it ignores the cancellation of; nor any goroutine.
func TestCloseEndsStubbornStdioServers(t *testing.T) {
	for _, inFlight := range []bool{false, true} {
		t.Run(fmt.Sprintf("callInFlight=%v", inFlight), func(t *testing.T) {
			before := goleak.IgnoreCurrent()
			token := fmt.Sprintf("stubborn%d", time.Now().UnixNano())
			blocked := filepath.Join(t.TempDir(), "blocked")
			srv, err := projectopstest.NewServer(projectopstest.WithRateLimit(0, 0))
			if err != nil {
				t.Fatal(err)
			}
			ws := srv.Default()
			sid, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "stubborn",
				TransportType: "stdio", Command: os.Args[0], Args: []string{"-test.run=^$"},
				Env: map[string]projectopstest.Secret{stubbornPeerEnv: "1", blockedEnv: projectopstest.Secret(blocked),
					"PROJECTOPSTEST_TOKEN": projectopstest.Secret(token)}})
			if err != nil {
				t.Fatal(err)
			}
			c, err := srv.NewClient()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Servers.ListTools(t.Context(), ws.ProjectID, sid, nil); err != nil {
				t.Fatalf("ListTools: %v", err)
			}
			if len(proctest.With(t, token)) < 2 {
				t.Fatalf("the stdio server and its helper are not both running: %v", proctest.With(t, token))
			}
			callDone := make(chan error, 1)
			if inFlight {
				go func() {
					_, err := c.Servers.CallTool(context.Background(), ws.ProjectID, sid, servers.CallToolParams{ToolName: "block"})
					callDone <- err
				}()
				for {
					if _, err := os.Stat(blocked); err == nil {
						break
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
			_ = srv.Close()
			left := proctest.With(t, token)
			if inFlight {
				<-callDone // Close cancelled it
			}
			for _, p := range left {
				var pid int
				_, _ = fmt.Sscan(p, &pid)
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			if len(left) > 0 {
				t.Errorf("Close returned with stdio processes still running: %v", left)
			}
			c.CloseIdleConnections()
			if err := goleak.Find(before); err != nil {
				t.Errorf("goroutines left after Close: %v", err)
			}
		})
	}
}
