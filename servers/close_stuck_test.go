package servers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// A real MCP server (over HTTP) whose tool ignores its context holds a call
// when the double closes: Close returns (after the grace it gives requests
// in flight and its MCP close bound) while the tool is still stuck, and
// leaves none of its own goroutines behind (go-sdk's session DELETE, sent
// on a context of its own, is cut with the rest).
func TestCloseWithStuckMCPServerLeavesNothing(t *testing.T) {
	release := make(chan struct{})
	ms := mcp.NewServer(&mcp.Implementation{Name: "stuck", Version: "0.1.0"}, nil)
	mcp.AddTool(ms, &mcp.Tool{Name: "stuck"}, func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
		<-release
		return &mcp.CallToolResult{}, nil, nil
	})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ms }, nil))
	defer hs.Close()
	defer close(release)

	before := goroutineIDs() // another test's goroutines are not this double's
	srv, err := projectopstest.NewServer(projectopstest.WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	p := srv.Default().ProjectID
	id, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "stuck", URL: hs.URL})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		_, _ = c.Servers.CallTool(context.Background(), p, id, servers.CallToolParams{ToolName: "stuck"})
	}()
	time.Sleep(300 * time.Millisecond) // the call is in flight
	// The tool never ends while the test runs, so Close returning at all
	// shows it did not wait for it; the bound is generous (a loaded CI
	// host stretches the grace and the close bound several times over).
	closed := make(chan struct{})
	go func() { _ = srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatalf("Close still waiting after a minute (grace %v): it waits for the stuck tool", projectopstest.ShutdownGrace)
	}
	var left []string
	for deadline := time.Now().Add(time.Second); ; time.Sleep(50 * time.Millisecond) {
		var b strings.Builder
		_ = pprof.Lookup("goroutine").WriteTo(&b, 2)
		left = left[:0]
		for _, g := range strings.Split(b.String(), "\n\n") {
			if f := strings.Fields(g); len(f) > 1 && before[f[1]] {
				continue
			}
			if strings.Contains(g, "projectopstest") || strings.Contains(g, "mcp.(*ClientSession") ||
				strings.Contains(g, "mcp.(*streamableClientConn") {
				left = append(left, g)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(left) > 0 {
		t.Fatalf("%d goroutine groups of the double left 1 s after Close returned:\n%s", len(left), strings.Join(left, "\n\n"))
	}
}

// goroutineIDs are the ids of the goroutines running now.
func goroutineIDs() map[string]bool {
	var b strings.Builder
	_ = pprof.Lookup("goroutine").WriteTo(&b, 2)
	ids := map[string]bool{}
	for _, g := range strings.Split(b.String(), "\n\n") {
		if f := strings.Fields(g); len(f) > 1 { // "goroutine N [...": N, whatever GOTRACEBACK adds after it
			ids[f[1]] = true
		}
	}
	return ids
}
