package projectopstest_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
)

// The hosted service knows two transports, stdio and http (its server
// schema allows only those two transport types). An http server is
// reached the way the service's MCPClientManager reaches it (public
// source, sdk/src/mcp-client-manager/MCPClientManager.ts at 2026-07-09):
// SSE is preferred when the config asks for it or the URL's pathname ends
// in /sse; when not preferred, Streamable HTTP is tried first and, when it fails, the legacy
// SSE transport is tried on the same URL. The SDK's own InitInfo doc says
// the same: the transport that connected "for an HTTP server may differ
// from the saved TransportType (a fallback to SSE, say)".
//
// A legacy SSE server (go-sdk's SSE handler here; server-everything's `sse`
// mode behaves the same) saved as an http server therefore validates on the
// service with initInfo.transport "sse", and so it does on the double.
func TestHTTPServerFallsBackToLegacySSE(t *testing.T) {
	t.Parallel()
	s := mcp.NewServer(&mcp.Implementation{Name: "legacy-sse", Version: "1.0.0"}, nil)
	s.AddPrompt(&mcp.Prompt{Name: "p"}, nil)
	sse := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil)
	mux := http.NewServeMux()
	mux.Handle("/sse", sse)    // URL ends with /sse: the service goes straight to SSE
	mux.Handle("/legacy", sse) // any other path: Streamable HTTP fails, then SSE
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)

	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	// Control: saved as "sse", the double reaches the same endpoint.
	ctl := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "control",
		TransportType: "sse", URL: hs.URL + "/sse"}))
	if r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+ctl+"/validate", ws.APIKey, `{}`); r.status != 200 {
		t.Fatalf("control (saved as sse): %d %s", r.status, r.body)
	}
	for _, path := range []string{"/sse", "/legacy"} {
		id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "legacy" + path,
			TransportType: "http", URL: hs.URL + path}))
		r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/validate", ws.APIKey, `{}`)
		if r.status != 200 {
			t.Errorf("validate of an SSE server saved as http at %s: %d %s, want 200 (the service falls back to SSE)", path, r.status, r.body)
			continue
		}
		var v struct {
			InitInfo struct{ Transport string } `json:"initInfo"`
		}
		_ = json.Unmarshal(r.body, &v)
		if v.InitInfo.Transport != "sse" {
			t.Errorf("%s: initInfo.transport = %q, want sse", path, v.InitInfo.Transport)
		}
		// doctor names the transport that connected too.
		r = tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/doctor", ws.APIKey, `{}`)
		var d struct {
			Connection struct{ Detail string } `json:"connection"`
		}
		if err := json.Unmarshal(r.body, &d); r.status != 200 || err != nil || d.Connection.Detail != "connected over sse" {
			t.Errorf("%s: doctor %d, connection detail %q, want \"connected over sse\"", path, r.status, d.Connection.Detail)
		}
	}
}
