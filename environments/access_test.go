package environments_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/projectopstest"
)

func TestBodylessOperationsRejectBodies(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.gate.open()
	p := f.WS.ProjectID
	id, err := f.Srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: p, OwnerUserID: f.WS.UserID,
		Name: "e", Dockerfile: dockerfile, Built: true})
	if err != nil {
		t.Fatal(err)
	}
	envPath := "/projects/" + p + "/computer-environments/" + id
	ops := []struct{ method, path string }{
		{http.MethodPost, envPath + "/build"},
		{http.MethodPost, envPath + "/use"},
		{http.MethodPost, envPath + "/promote"},
		{http.MethodPost, "/projects/" + p + "/computer/reset"},
		{http.MethodDelete, envPath},
	}
	for _, op := range ops {
		for _, body := range []string{`{"force":true}`, `{"name":"x"}`} {
			status, field := f.raw(t, op.method, op.path, f.WS.APIKey, body)
			if status != http.StatusBadRequest || field == "" {
				t.Errorf("%s %s with %s: %d field %q, want 400 naming the field", op.method, op.path, body, status, field)
			}
		}
		if status, _ := f.raw(t, op.method, op.path, f.WS.APIKey, `[1]`); status != http.StatusBadRequest {
			t.Errorf("%s %s with a non-object body: %d", op.method, op.path, status)
		}
	}
	// Nothing happened: no build, not shared, not deleted, no computer.
	env, err := f.C.Environments.Get(t.Context(), p, id)
	if err != nil {
		t.Fatal(err)
	}
	if env.Sharing != environments.SharingUser {
		t.Errorf("sharing = %s after rejected promotes", env.Sharing)
	}
	if builds, _ := f.C.Environments.ListBuilds(t.Context(), p, id, nil); len(builds.Items) != 1 {
		t.Errorf("%d builds after rejected builds, want the seeded one", len(builds.Items))
	}
	if _, ok := f.Srv.Computer(p, f.WS.UserID); ok {
		t.Error("a rejected boot or reset made a computer")
	}
	// An empty object is no body field at all.
	for _, op := range ops {
		if status, _ := f.raw(t, op.method, op.path, f.WS.APIKey, `{}`); status >= 300 {
			t.Errorf("%s %s with {}: %d", op.method, op.path, status)
		}
	}
}

// everyOp calls every operation on env (reads and writes) as c and returns
// the errors by name; share is left out when noShare is set.
func everyOp(ctx context.Context, c *projectops.Client, p, env string, noShare ...bool) map[string]error {
	es := c.Environments
	errs := map[string]error{}
	_, errs["list"] = es.List(ctx, p, nil)
	_, errs["get"] = es.Get(ctx, p, env)
	_, errs["builds"] = es.ListBuilds(ctx, p, env, nil)
	_, errs["create"] = es.Create(ctx, p, environments.CreateParams{Name: "n", Dockerfile: dockerfile})
	_, errs["update"] = es.Update(ctx, p, env, environments.UpdateParams{Name: "n"})
	_, errs["build"] = es.Build(ctx, p, env)
	_, errs["boot"] = es.Boot(ctx, p, env)
	_, errs["reset"] = es.Reset(ctx, p)
	if len(noShare) == 0 || !noShare[0] {
		_, errs["share"] = es.Share(ctx, p, env)
	}
	_, errs["delete"] = es.Delete(ctx, p, env)
	return errs
}

var writes = []string{"create", "update", "build", "boot", "reset", "share", "delete"}

func TestGuestsAreDeniedEveryWrite(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.gate.open()
	p := f.WS.ProjectID
	id, err := f.Srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: p, OwnerUserID: f.WS.UserID,
		Name: "shared", Dockerfile: dockerfile, Shared: true, Built: true})
	if err != nil {
		t.Fatal(err)
	}
	_, guest := f.user(t, projectopstest.RoleMember, projectopstest.RoleGuest)
	errs := everyOp(t.Context(), guest, p, id)
	for _, op := range []string{"list", "get", "builds"} {
		if errs[op] != nil {
			t.Errorf("guest %s: %v", op, errs[op])
		}
	}
	for _, op := range writes {
		wantError(t, errs[op], projectops.CodeForbidden)
	}
	if env, err := f.C.Environments.Get(t.Context(), p, id); err != nil || env.Name != "shared" {
		t.Errorf("environment changed by a guest: %+v %v", env, err)
	}
}

func TestOtherProjectsEnvironmentIsNotFound(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.gate.open()
	other, err := f.Srv.AddProject(projectopstest.ProjectSpec{OrganizationID: f.WS.OrganizationID, Name: "other"})
	if err != nil {
		t.Fatal(err)
	}
	id, err := f.Srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: other, OwnerUserID: f.WS.UserID,
		Name: "theirs", Dockerfile: dockerfile, Shared: true, Built: true})
	if err != nil {
		t.Fatal(err)
	}
	errs := everyOp(t.Context(), f.C, f.WS.ProjectID, id)
	for _, op := range []string{"get", "builds", "update", "build", "boot", "share", "delete"} {
		wantError(t, errs[op], projectops.CodeNotFound)
	}
	if page, err := f.C.Environments.List(t.Context(), f.WS.ProjectID, nil); err != nil || len(page.Items) != 1 {
		// The one created by everyOp; never the other project's.
		t.Errorf("list = %+v, %v", page, err)
	}
	if _, err := f.C.Environments.Get(t.Context(), other, id); err != nil {
		t.Errorf("in its own project: %v", err)
	}
	_, err = f.C.Environments.Get(t.Context(), "prj_nope", id)
	wantError(t, err, projectops.CodeNotFound)
}

func TestDraftsArePersonal(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.gate.open()
	ctx, p := t.Context(), f.WS.ProjectID
	aliceID, alice := f.user(t, projectopstest.RoleMember, projectopstest.RoleMember)
	_, bob := f.user(t, projectopstest.RoleMember, projectopstest.RoleMember)
	draft, err := alice.Environments.Create(ctx, p, environments.CreateParams{Name: "alice's", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	shared, err := f.Srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: p, OwnerUserID: aliceID,
		Name: "team", Dockerfile: dockerfile, Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	names := func(c *projectops.Client) []string {
		var out []string
		for e, err := range c.Environments.All(ctx, p, nil) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, e.Name)
		}
		return out
	}
	if got := names(alice); !slices.Equal(got, []string{"alice's", "team"}) {
		t.Errorf("alice lists %v", got)
	}
	if got := names(bob); !slices.Equal(got, []string{"team"}) {
		t.Errorf("bob lists %v", got)
	}
	// Every operation on another user's draft reads as not found, even for
	// the organization's owner, but for the owner's share (a project
	// admin's; TestProjectAdminSharesMembersDraft).
	for who, c := range map[string]*projectops.Client{"bob": bob, "owner": f.C} {
		errs := everyOp(ctx, c, p, draft.ID, who == "owner")
		for _, op := range []string{"get", "builds", "update", "build", "boot", "share", "delete"} {
			if e, ran := errs[op]; ran && (e == nil || !isCode(e, projectops.CodeNotFound)) {
				t.Errorf("%s %s on alice's draft: %v, want NOT_FOUND", who, op, e)
			}
		}
	}
	env, err := bob.Environments.Get(ctx, p, shared)
	if err != nil || env.IsOwner || env.Sharing != environments.SharingProject {
		t.Errorf("bob gets the shared one: %+v, %v", env, err)
	}
}

// TestMemberEditsAndBuildsSharedEnvironment: a shared environment is the
// project's, so a member who did not create it may edit and build it.
func TestMemberEditsAndBuildsSharedEnvironment(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.gate.open()
	ctx, p := t.Context(), f.WS.ProjectID
	aliceID, _ := f.user(t, projectopstest.RoleMember, projectopstest.RoleMember)
	_, bob := f.user(t, projectopstest.RoleMember, projectopstest.RoleMember)
	shared, err := f.Srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: p, OwnerUserID: aliceID,
		Name: "team", Dockerfile: dockerfile, Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	const edited = "FROM alpine@" + pinned + "\nRUN echo edited\n"
	env, err := bob.Environments.Update(ctx, p, shared, environments.UpdateParams{Name: "team v2", Dockerfile: edited})
	if err != nil || env.Name != "team v2" || env.Dockerfile != edited || env.IsOwner {
		t.Fatalf("bob edits alice's shared environment: %+v, %v", env, err)
	}
	started, err := bob.Environments.Build(ctx, p, shared)
	if err != nil {
		t.Fatal(err)
	}
	b, err := bob.Environments.WaitForBuild(ctx, p, shared, started.BuildID, fast)
	if err != nil || b.Status != environments.BuildReady {
		t.Errorf("bob's build = %+v, %v; want ready", b, err)
	}
}

func isCode(err error, code projectops.Code) bool {
	var e *projectops.Error
	return errors.As(err, &e) && e.Code == code
}

func TestShareNeedsProjectAdmin(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID
	_, member := f.user(t, projectopstest.RoleMember, projectopstest.RoleMember)
	_, admin := f.user(t, projectopstest.RoleMember, projectopstest.RoleAdmin)
	mine, err := member.Environments.Create(ctx, p, environments.CreateParams{Name: "m", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	_, err = member.Environments.Share(ctx, p, mine.ID)
	wantError(t, err, projectops.CodeNotFound) // the service's admin gate reads as NOT_FOUND

	draft, err := admin.Environments.Create(ctx, p, environments.CreateParams{Name: "a", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // sharing a shared environment changes nothing
		env, err := admin.Environments.Share(ctx, p, draft.ID)
		if err != nil || env.Sharing != environments.SharingProject || !env.IsOwner {
			t.Fatalf("admin Share = %+v, %v", env, err)
		}
	}
	env, err := member.Environments.Get(ctx, p, draft.ID)
	if err != nil || env.Sharing != environments.SharingProject || env.IsOwner {
		t.Fatalf("member sees the shared environment as %+v, %v", env, err)
	}
	// Sharing stays admin-only even on a shared environment.
	_, err = member.Environments.Share(ctx, p, draft.ID)
	wantError(t, err, projectops.CodeNotFound)
}

// TestProjectAdminSharesMembersDraft: spec §3 makes sharing a personal
// draft the project admin's transition, so an admin shares a member's
// draft (which the member, not admin, cannot), without seeing it before;
// once shared, the whole project sees it and the member still owns it.
func TestProjectAdminSharesMembersDraft(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID
	_, member := f.user(t, projectopstest.RoleMember, projectopstest.RoleMember)
	_, admin := f.user(t, projectopstest.RoleMember, projectopstest.RoleAdmin)
	draft, err := member.Environments.Create(ctx, p, environments.CreateParams{Name: "m", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	_, err = admin.Environments.Get(ctx, p, draft.ID)
	wantError(t, err, projectops.CodeNotFound) // still personal until shared
	env, err := admin.Environments.Share(ctx, p, draft.ID)
	if err != nil || env.Sharing != environments.SharingProject || env.IsOwner {
		t.Fatalf("admin shares a member's draft: %+v, %v", env, err)
	}
	if env, err = member.Environments.Get(ctx, p, draft.ID); err != nil || !env.IsOwner || env.Sharing != environments.SharingProject {
		t.Errorf("the member's view after sharing: %+v, %v", env, err)
	}
	if env, err = f.C.Environments.Get(ctx, p, draft.ID); err != nil || env.Sharing != environments.SharingProject {
		t.Errorf("the organization owner's view after sharing: %+v, %v", env, err)
	}
	// Another project's admin path does not reach it.
	other, err := f.Srv.AddProject(projectopstest.ProjectSpec{OrganizationID: f.WS.OrganizationID, Name: "other"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.C.Environments.Share(ctx, other, draft.ID)
	wantError(t, err, projectops.CodeNotFound)
}

// TestDeletingSharedNeedsProjectAdmin: of the changes to a project-shared
// environment, only deleting it (and sharing) needs project admin (spec §4.7;
// §3 gives "build environment" the condition "any"); a member still edits
// and builds one.
func TestDeletingSharedNeedsProjectAdmin(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.gate.open()
	ctx, p := t.Context(), f.WS.ProjectID
	memberID, member := f.user(t, projectopstest.RoleMember, projectopstest.RoleMember)
	shared, err := f.Srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: p, OwnerUserID: memberID,
		Name: "team", Dockerfile: dockerfile, Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	// Not even its creator may delete it once shared; the answer is the
	// service's NOT_FOUND, which does not confirm the environment exists.
	_, err = member.Environments.Delete(ctx, p, shared)
	wantError(t, err, projectops.CodeNotFound)
	// A member may still edit and build a shared environment.
	if _, err := member.Environments.Update(ctx, p, shared, environments.UpdateParams{Name: "team2"}); err != nil {
		t.Errorf("member Update of a shared environment: %v", err)
	}
	if _, err := member.Environments.Build(ctx, p, shared); err != nil {
		t.Errorf("member Build of a shared environment: %v", err)
	}
	if _, err := f.C.Environments.Delete(ctx, p, shared); err != nil {
		t.Fatalf("admin Delete: %v", err)
	}
	_, err = f.C.Environments.Delete(ctx, p, shared)
	wantError(t, err, projectops.CodeNotFound)

	draft, err := member.Environments.Create(ctx, p, environments.CreateParams{Name: "d", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := member.Environments.Delete(ctx, p, draft.ID); err != nil {
		t.Errorf("member deleting their own draft: %v", err)
	}
}
