package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/projectopstest"
)

// world is a populated server: the default workspace plus users of every
// role, a second project, another organization, and keys for each.
type world struct {
	srv *projectopstest.Server
	ws  projectopstest.Workspace
	// keys by user: owner, admin, member, pguest (project guest), outsider
	// (no project access), orgguest, foreign (other organization), plus
	// revoked and orphaned keys of member.
	keys map[string]string
	// users by the same names.
	users map[string]string
	// otherProject is in the same organization; member has no access.
	otherProject string
	// publicProject is public: every organization member gets in.
	publicProject string
	// foreignProject is in another organization.
	foreignProject string
	// hostOther and cbxOther live in otherProject.
	hostOther, cbxOther string
	// server is a saved server of the default project.
	server string
}

// noLimit is the option every test not about rate limiting uses.
var noLimit = projectopstest.WithRateLimit(0, 0)

func newWorld(t *testing.T, opts ...projectopstest.Option) *world {
	t.Helper()
	// Rate limiting has its own tests; here it would only get in the way.
	opts = append([]projectopstest.Option{projectopstest.WithRateLimit(0, 0)}, opts...)
	srv := projectopstest.NewTestServer(t, opts...)
	w := &world{srv: srv, ws: srv.Default(), keys: map[string]string{}, users: map[string]string{}}
	ws := w.ws
	w.keys["owner"], w.users["owner"] = ws.APIKey, ws.UserID
	str := must[string](t)
	addUser := func(name string, role projectopstest.Role, org string) {
		w.users[name] = str(srv.AddUser(projectopstest.UserSpec{OrganizationID: org, Role: role, Name: name}))
		secret, _, err := srv.AddAPIKey(w.users[name], name)
		if err != nil {
			t.Fatal(err)
		}
		w.keys[name] = secret
	}
	addUser("admin", projectopstest.RoleAdmin, ws.OrganizationID)
	addUser("member", projectopstest.RoleMember, ws.OrganizationID)
	addUser("pguest", projectopstest.RoleMember, ws.OrganizationID)
	addUser("outsider", projectopstest.RoleMember, ws.OrganizationID)
	addUser("orgguest", projectopstest.RoleGuest, ws.OrganizationID)
	if err := srv.AddMember(ws.ProjectID, w.users["member"], projectopstest.RoleMember); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddMember(ws.ProjectID, w.users["pguest"], projectopstest.RoleGuest); err != nil {
		t.Fatal(err)
	}
	foreignOrg := str(srv.AddOrganization(projectopstest.OrganizationSpec{Name: "Elsewhere"}))
	addUser("foreign", projectopstest.RoleOwner, foreignOrg)
	w.foreignProject = str(srv.AddProject(projectopstest.ProjectSpec{OrganizationID: foreignOrg, Name: "Foreign"}))
	w.otherProject = str(srv.AddProject(projectopstest.ProjectSpec{OrganizationID: ws.OrganizationID, Name: "Other"}))
	w.publicProject = str(srv.AddProject(projectopstest.ProjectSpec{OrganizationID: ws.OrganizationID,
		Name: "Open", Visibility: projectopstest.VisibilityPublic}))
	w.hostOther = str(srv.AddHost(projectopstest.HostSpec{ProjectID: w.otherProject, Name: "H", Template: hosts.TemplateClaude}))
	w.cbxOther = str(srv.AddChatbox(projectopstest.ChatboxSpec{ProjectID: w.otherProject, Name: "C", HostID: w.hostOther}))
	w.server = str(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "everything", URL: "https://mcp.example.com/mcp"}))

	revoked, revokedID, err := srv.AddAPIKey(w.users["member"], "revoked")
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.RevokeAPIKey(revokedID); err != nil {
		t.Fatal(err)
	}
	orphaned, orphanedID, err := srv.AddAPIKey(w.users["member"], "orphaned")
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.OrphanAPIKey(orphanedID); err != nil {
		t.Fatal(err)
	}
	w.keys["revoked"], w.keys["orphaned"] = revoked, orphaned
	return w
}
