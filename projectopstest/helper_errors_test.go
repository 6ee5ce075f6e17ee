package projectopstest_test

import (
	"errors"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
)

// The exported helpers' errors all start "projectopstest: ", as the
// package's other errors do, and one for a reference to something the
// double does not hold matches projectops.ErrNotFound, the sentinel the
// API's 404 matches, while keeping its message.
func TestHelperErrorsShareOneConvention(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t)
	ws := srv.Default()
	const nope = "prj_nope"
	secondErr := func(_ string, err error) error { return err }
	_, _, keyErr := srv.AddAPIKey("usr_nope", "k")
	unknown := map[string]error{
		"AddServer":      secondErr(srv.AddServer(projectopstest.ServerSpec{ProjectID: nope, Name: "x", URL: "http://x.invalid/mcp"})),
		"AddMember":      srv.AddMember(nope, ws.UserID, projectopstest.RoleMember),
		"AddMember user": srv.AddMember(ws.ProjectID, "usr_nope", projectopstest.RoleMember),
		"AddHost":        secondErr(srv.AddHost(projectopstest.HostSpec{ProjectID: nope, Name: "x", Template: "claude"})),
		"AddEvalSuite":   secondErr(srv.AddEvalSuite(projectopstest.EvalSuiteSpec{ProjectID: nope, Name: "x"})),
		"AddChatbox":     secondErr(srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: nope, Name: "x"})),
		// An unknown server id is an unknown reference too, though the
		// check is the API's (its NOT_FOUND).
		"AddChatbox server":   secondErr(srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: ws.ProjectID, Name: "x", ServerIDs: []string{"srv_nope"}})),
		"AddEvalSuite server": secondErr(srv.AddEvalSuite(projectopstest.EvalSuiteSpec{ProjectID: ws.ProjectID, Name: "x", ServerIDs: []string{"srv_nope"}})),
		"AddHost server": secondErr(srv.AddHost(projectopstest.HostSpec{ProjectID: ws.ProjectID, Name: "x",
			Config: map[string]any{"serverIds": []any{"srv_nope"}}})),
		"AddChatSession":          secondErr(srv.AddChatSession(projectopstest.ChatSessionSpec{ProjectID: nope})),
		"AddEnvironment":          secondErr(srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: nope, Name: "x", Dockerfile: "FROM x"})),
		"AddUser":                 secondErr(srv.AddUser(projectopstest.UserSpec{OrganizationID: "org_nope", Role: projectopstest.RoleMember})),
		"AddProject":              secondErr(srv.AddProject(projectopstest.ProjectSpec{OrganizationID: "org_nope", Name: "x"})),
		"AddAPIKey":               keyErr,
		"RevokeAPIKey":            srv.RevokeAPIKey("key_nope"),
		"OrphanAPIKey":            srv.OrphanAPIKey("key_nope"),
		"InstallOnComputer":       srv.InstallOnComputer(nope, ws.UserID, "x"),
		"SetComputerProvider":     srv.SetComputerProvider(ws.ProjectID, "usr_nope", "p"),
		"SetOrganizationModelKey": srv.SetOrganizationModelKey("org_nope", "openai", "k"),
	}
	for name, err := range unknown {
		if err == nil {
			t.Errorf("%s: no error for an unknown reference", name)
			continue
		}
		if !strings.HasPrefix(err.Error(), "projectopstest: ") || !strings.Contains(err.Error(), "nope") {
			t.Errorf("%s: error %q, want the package's prefix and the unknown id", name, err)
		}
		if !errors.Is(err, projectops.ErrNotFound) {
			t.Errorf("%s: error %q does not match projectops.ErrNotFound", name, err)
		}
		if _, isAPI := errors.AsType[*projectops.Error](err); isAPI {
			t.Errorf("%s: error %q passes for an API error", name, err)
		}
	}
	invalid := map[string]error{
		"AddServer":       secondErr(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID})),
		"AddOrganization": secondErr(srv.AddOrganization(projectopstest.OrganizationSpec{})),
		"AddMember role":  srv.AddMember(ws.ProjectID, ws.UserID, "boss"),
		"AddHost":         secondErr(srv.AddHost(projectopstest.HostSpec{ProjectID: ws.ProjectID, Name: "x", Template: "no such template"})),
	}
	for name, err := range invalid {
		if err == nil || !strings.HasPrefix(err.Error(), "projectopstest: ") || errors.Is(err, projectops.ErrNotFound) {
			t.Errorf("%s: error %v, want the package's prefix and no ErrNotFound", name, err)
		}
	}
}
