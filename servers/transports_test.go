package servers_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// The same server over go-sdk's streamable HTTP and SSE handlers, reached
// by URL, behaves as in process.
func TestHTTPAndSSETransports(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		transport string
		handler   http.Handler
	}{
		{servers.TransportHTTP, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return fullServer() }, nil)},
		{servers.TransportSSE, mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return fullServer() }, nil)},
	} {
		t.Run(tt.transport, func(t *testing.T) {
			t.Parallel()
			ts := httptest.NewServer(tt.handler)
			t.Cleanup(ts.Close)
			f := setup(t)
			p := f.WS.ProjectID
			id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "remote",
				TransportType: tt.transport, URL: ts.URL}))
			ctx := t.Context()
			tools, err := collect(f.C.Servers.AllTools(ctx, p, id, nil))
			if err != nil || len(tools) != 5 {
				t.Fatalf("Tools: %d, %v", len(tools), err)
			}
			res, err := f.C.Servers.CallTool(ctx, p, id, servers.CallToolParams{ToolName: "echo", Parameters: map[string]any{"query": "x"}})
			if err != nil || text(t, res.Content) != "echo: x" {
				t.Fatalf("CallTool: %+v, %v", res, err)
			}
			rep, err := f.C.Servers.Doctor(ctx, p, id)
			if err != nil || rep.Status != servers.DoctorReady {
				t.Fatalf("Doctor: %+v, %v", rep, err)
			}
			if n := f.Srv.MCPSessions(); n != 0 {
				t.Errorf("MCPSessions = %d, want 0 (each operation's session ends with it)", n)
			}
		})
	}
}
