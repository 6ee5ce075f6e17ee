package hosts_test

import (
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
)

// A host config naming a server the project does not have (unknown, or
// another project's) is the spec's NOT_FOUND (404), naming the field; the
// write changes nothing.
func TestUnknownServerIs404(t *testing.T) {
	t.Parallel()
	f := setup(t)
	other := must(t)(f.Srv.AddProject(projectopstest.ProjectSpec{OrganizationID: f.WS.OrganizationID, Name: "Other"}))
	otherServer := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: other, Name: "s", URL: "https://mcp.example.com/mcp"}))
	for _, id := range []string{"srv_nope", otherServer} {
		_, err := f.C.Hosts.Create(t.Context(), f.WS.ProjectID, hosts.CreateParams{Name: "x",
			Config: hosts.MustConfig(sdktest.HostConfig(map[string]any{"serverIds": []string{id}}))})
		if e := sdktest.WantError(t, err, projectops.CodeNotFound, true); e.Details["field"] != "config.serverIds" || e.Details["serverId"] != id {
			t.Errorf("create with %s: details %v", id, e.Details)
		}
	}
	host := must(t)(f.Srv.AddHost(projectopstest.HostSpec{ProjectID: f.WS.ProjectID, Name: "H", Template: hosts.TemplateClaude}))
	_, err := f.C.Hosts.Update(t.Context(), f.WS.ProjectID, host, hosts.UpdateParams{Name: "renamed",
		Config: hosts.MustConfig(sdktest.HostConfig(map[string]any{"serverIds": []any{"srv_nope"}}))})
	sdktest.WantError(t, err, projectops.CodeNotFound, true)
	page, err := f.C.Hosts.List(t.Context(), f.WS.ProjectID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 1 || page.Items[0].Name != "H" {
		t.Errorf("hosts after the refused writes: %+v", page.Items)
	}
}
