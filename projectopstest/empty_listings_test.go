package projectopstest_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
)

// emptyMCPServer advertises caps and serves no tool, prompt or resource.
func emptyMCPServer(caps *mcp.ServerCapabilities) *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "empty", Version: "1.0.0"}, &mcp.ServerOptions{Capabilities: caps})
}

// An empty collection is {"items":[]}, never a null or missing items
// (api-spec.md §2, collection envelope): the catalog listings of a fresh
// project, the builds of an environment never built, and the primitives of
// a server that advertises a capability but has nothing in it.
func TestEmptyListingsAreEmptyArrays(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	p := "/projects/" + ws.ProjectID
	env := must[string](t)(srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: ws.ProjectID, OwnerUserID: ws.UserID,
		Name: "unbuilt", Dockerfile: "FROM ubuntu:22.04@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\n"}))
	// The environment is needed for its builds, but would fill the
	// environment listing: that one is read in a second project.
	other := must[string](t)(srv.AddProject(projectopstest.ProjectSpec{OrganizationID: ws.OrganizationID, Name: "bare"}))
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Prompts: &mcp.PromptCapabilities{}, Resources: &mcp.ResourceCapabilities{}}
	sid := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "empty", MCPServer: emptyMCPServer(caps)}))
	tg := inproc(srv)
	for _, c := range []struct{ method, path string }{
		{"GET", p + "/hosts"},
		{"GET", p + "/chatboxes"},
		{"GET", p + "/eval-suites"},
		{"GET", "/projects/" + other + "/computer-environments"},
		{"GET", p + "/computer-environments/" + env + "/builds"},
		{"POST", p + "/servers/" + sid + "/tools"},
		{"POST", p + "/servers/" + sid + "/prompts"},
		{"POST", p + "/servers/" + sid + "/resources"},
	} {
		var body any
		if c.method == "POST" {
			body = `{}`
		}
		r := tg.call(t, c.method, c.path, ws.APIKey, body)
		if r.status != 200 || string(r.body) != `{"items":[]}` {
			t.Errorf("%s %s: %d %s, want 200 {\"items\":[]}", c.method, c.path, r.status, r.body)
		}
	}
}

// Export lists each primitive as [] when the server has none, whether it
// advertises the capability with nothing in it or does not advertise it at
// all (api-spec.md §2, §4.3: one snapshot, meant for diffing, so a missing
// list must not read as null).
func TestExportEmptyPrimitivesAreEmptyArrays(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	for name, caps := range map[string]*mcp.ServerCapabilities{
		"advertised": {Tools: &mcp.ToolCapabilities{}, Prompts: &mcp.PromptCapabilities{}, Resources: &mcp.ResourceCapabilities{}},
		"none":       {},
	} {
		sid := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: name, MCPServer: emptyMCPServer(caps)}))
		r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+sid+"/export", ws.APIKey, `{}`)
		var snap map[string]json.RawMessage
		r.decode(t, &snap)
		got := map[string]string{}
		for _, k := range []string{"tools", "resources", "prompts"} {
			got[k] = string(snap[k])
		}
		want := map[string]string{"tools": "[]", "resources": "[]", "prompts": "[]"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: export lists (-want +got):\n%s\nbody %s", name, diff, r.body)
		}
	}
}
