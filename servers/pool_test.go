package servers_test

import (
	"net/http"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// A stdio server's session (the double's own feature: the hosted service
// runs no stdio servers) is kept between calls and closed once idle.
func TestPooledSessionExpiresWhenIdle(t *testing.T) {
	t.Parallel()
	f := setup(t, projectopstest.WithMCPIdleTimeout(300*time.Millisecond))
	p, id := f.WS.ProjectID, addStdioFull(t, f)
	if _, err := f.C.Servers.ListTools(t.Context(), p, id, nil); err != nil {
		t.Fatal(err)
	}
	if n := f.Srv.MCPSessions(); n != 1 {
		t.Errorf("MCPSessions after a stdio call = %d, want 1 kept session", n)
	}
	deadline := time.Now().Add(5 * time.Second)
	for f.Srv.MCPSessions() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the idle session was never closed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The next call connects again.
	if _, err := f.C.Servers.CallTool(t.Context(), p, id, servers.CallToolParams{ToolName: "echo"}); err != nil {
		t.Fatal(err)
	}
}

// Any other server's session lasts as long as the operation, as on the
// service, which connects afresh for each.
func TestSessionEndsWithTheOperation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p, id := f.WS.ProjectID, addMCP(t, f, "full", fullServer())
	if _, err := f.C.Servers.ListTools(t.Context(), p, id, nil); err != nil {
		t.Fatal(err)
	}
	if n := f.Srv.MCPSessions(); n != 0 {
		t.Errorf("MCPSessions after the call = %d, want 0", n)
	}
}

// The retry classes the issue fixes: reads and import-tokens are retried
// on a 502, tools/call is not.
func TestRetryClasses(t *testing.T) {
	t.Parallel()
	const route = "POST /projects/{projectId}/servers/{serverId}"
	url := projectopstest.InProcessServerURL("full")
	tests := []struct {
		suffix string
		call   func(c *projectops.Client, p, id string) error
		tries  int
	}{
		{"/tools", func(c *projectops.Client, p, id string) error {
			_, err := c.Servers.ListTools(t.Context(), p, id, nil)
			return err
		}, 2},
		{"/export", func(c *projectops.Client, p, id string) error {
			_, err := c.Servers.Export(t.Context(), p, id)
			return err
		}, 2},
		{"/prompts/get", func(c *projectops.Client, p, id string) error {
			_, err := c.Servers.GetPrompt(t.Context(), p, id, servers.GetPromptParams{PromptName: "greet", Arguments: map[string]any{"name": "x"}})
			return err
		}, 2},
		{"/oauth/import-tokens", func(c *projectops.Client, p, id string) error {
			_, err := c.Servers.ImportTokens(t.Context(), p, id, servers.ImportTokensParams{ServerURL: url, Tokens: servers.Tokens{AccessToken: "a"}})
			return err
		}, 2},
		{"/tools/call", func(c *projectops.Client, p, id string) error {
			_, err := c.Servers.CallTool(t.Context(), p, id, servers.CallToolParams{ToolName: "echo"})
			return err
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.suffix, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			id := addMCP(t, f, "full", fullServer())
			f.Srv.SetFault(route+tt.suffix, projectopstest.Fault{Status: http.StatusBadGateway, Code: projectops.CodeServerUnreachable, Times: 1})
			err := tt.call(f.C, f.WS.ProjectID, id)
			if n := len(f.Srv.Requests()); n != tt.tries {
				t.Errorf("sent %d times, want %d", n, tt.tries)
			}
			if tt.tries == 1 {
				wantError(t, err, projectops.CodeServerUnreachable, true)
			} else if err != nil {
				t.Errorf("err = %v, want success after a retry", err)
			}
		})
	}
}
