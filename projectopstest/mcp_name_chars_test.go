package projectopstest_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// nameRoutes are the operations whose tool name, prompt name or uri go-sdk
// copies into the Mcp-Name header, with the body field that carries it.
var nameRoutes = []struct{ route, field string }{
	{"tools/call", "toolName"},
	{"prompts/get", "promptName"},
	{"resources/read", "uri"},
}

// nameBody is a route's body with value (a JSON string's contents) in
// field.
func nameBody(field, value string) string { return `{"` + field + `":"` + value + `"}` }

// A name or uri the MCP SDK cannot carry intact (a control character other
// than tab, which net/http refuses in a header and go-sdk's server cannot
// quote in its not-found error; a leading or trailing space or tab, which
// the receiver trims off the header) is the caller's 400 VALIDATION_ERROR
// naming the field, not 502 SERVER_UNREACHABLE for a healthy server. The
// answer is the same whatever the transport: in process, Streamable HTTP at
// protocol 2026-07-28 (where the header is sent) and stdio (refused before
// the command is started, so one that does not exist is enough).
func TestMCPNameControlCharactersRefused(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	ids := map[string]string{
		"inprocess": must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "demo",
			MCPServer: projectopstest.DemoMCPServer()})),
		"http": must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "demo-http",
			URL: statelessDemo(t)})),
		"stdio": must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "demo-stdio",
			TransportType: servers.TransportStdio, Command: "/nonexistent/mcp-server"})),
	}
	bad := []string{`demo://readme\u0001`, `demo://readme\u007f`, `\u0000`, `demo://readme\n`, `demo://readme\u000b`,
		`demo://readme `, `\tdemo://readme`}
	for _, tg := range targets(t, srv) {
		for transport, id := range ids {
			for _, rt := range nameRoutes {
				t.Run(tg.name+"/"+transport+"/"+rt.route, func(t *testing.T) {
					for _, v := range bad {
						tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/"+rt.route, ws.APIKey,
							nameBody(rt.field, v)).wantField(t, rt.field)
					}
				})
			}
		}
	}
}

// Characters go-sdk carries (non-ASCII letters, emoji, a tab inside) still
// reach the server over Streamable HTTP at 2026-07-28, where they travel in
// the Mcp-Name header too: the server's own not-found answer comes back.
func TestMCPNameNonASCIIReachesServer(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "demo-http",
		URL: statelessDemo(t)}))
	tg := inproc(srv)
	for _, rt := range nameRoutes {
		for _, v := range []string{"é", "😀", `a\tb`, "\u00a0x\u0085"} {
			r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/"+rt.route, ws.APIKey, nameBody(rt.field, v))
			// The server's answer: 404 for an unknown uri, 400 "rejected"
			// for an unknown tool or prompt; either carries its mcpCode.
			if r.status != http.StatusNotFound && r.status != http.StatusBadRequest || !strings.Contains(string(r.body), `"mcpCode"`) {
				t.Errorf("%s %q: status %d, body %s; want the server's not-found answer", rt.route, v, r.status, r.body)
			}
		}
	}
	r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/resources/read", ws.APIKey, `{"uri":"demo://readme"}`)
	if r.status != http.StatusOK {
		t.Errorf("demo://readme: status %d, body %s", r.status, r.body)
	}
}

// statelessDemo serves the demo MCP server over Streamable HTTP, stateless
// so that go-sdk negotiates 2026-07-28 and sends the Mcp-Name header, and
// returns its URL.
func statelessDemo(t *testing.T) string {
	t.Helper()
	s := projectopstest.DemoMCPServer()
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(hs.Close)
	return hs.URL
}
