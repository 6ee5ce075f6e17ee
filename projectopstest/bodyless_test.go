package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// TestBodylessWritesRefuseNullFields: a bodyless write refuses any field,
// one whose value is null too, and does nothing (a {"force":null} started
// a build, promoted an environment and reset the computer).
func TestBodylessWritesRefuseNullFields(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	env, err := srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: ws.ProjectID, OwnerUserID: ws.UserID,
		Name: "e", Dockerfile: "FROM ubuntu:22.04@sha256:cb287cf26b15fded26828219b268886d76ea3963bc93495425dcf08225c86e9f\nRUN echo hi\n", Built: true})
	if err != nil {
		t.Fatal(err)
	}
	tg := inproc(srv)
	p := "/projects/" + ws.ProjectID
	ep := p + "/computer-environments/" + env
	for _, path := range []string{ep + "/build", ep + "/use", ep + "/promote", p + "/computer/reset"} {
		tg.call(t, "POST", path, ws.APIKey, `{"force":null}`).wantField(t, "force")
	}
	var page shared.Page[environments.Build]
	tg.call(t, "GET", ep+"/builds", ws.APIKey, nil).decode(t, &page)
	var e environments.Environment
	tg.call(t, "GET", ep, ws.APIKey, nil).decode(t, &e)
	if len(page.Items) != 1 || e.Sharing != environments.SharingUser {
		t.Errorf("after refused writes: %d builds (want the seeded one), sharing %s (want user)", len(page.Items), e.Sharing)
	}
}

// Every bodyless route's refusal names each stray key in its message, in
// the words of the service's environment routes ("Unexpected field(s) in
// body: ..."), the first in details.field; the body is checked before the
// resource is looked up (the run here does not exist).
func TestBodylessRefusalNamesEveryKey(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	env, err := srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: ws.ProjectID, OwnerUserID: ws.UserID,
		Name: "e", Dockerfile: "FROM ubuntu:22.04@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\n"})
	if err != nil {
		t.Fatal(err)
	}
	tg := inproc(srv)
	p := "/projects/" + ws.ProjectID
	ep := p + "/computer-environments/" + env
	for _, c := range []struct{ method, path string }{
		{"POST", ep + "/build"}, {"POST", ep + "/use"}, {"POST", ep + "/promote"}, {"POST", p + "/computer/reset"},
		{"DELETE", ep}, {"POST", p + "/eval-runs/run_nope/cancel"},
	} {
		r := tg.call(t, c.method, c.path, ws.APIKey, `{"x":1,"force":true}`)
		r.wantField(t, "force")
		if b := r.wantError(t, shared.CodeValidation); b.Message != "Unexpected field(s) in body: force, x" {
			t.Errorf("%s %s: message %q", c.method, c.path, b.Message)
		}
	}
}

// A bodyless route (api-spec.md §4.7: build, boot, reset, share, delete)
// reads a body that is not a JSON object (null, an array, invalid JSON) as
// 400 VALIDATION_ERROR and does nothing; no body at all, white space alone
// or {} is no body field, and the operation goes through with its status.
func TestBodylessRoutesBodyForms(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	p := "/projects/" + ws.ProjectID
	newEnv := func() string {
		return must[string](t)(srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: ws.ProjectID, OwnerUserID: ws.UserID,
			Name: "e", Dockerfile: "FROM ubuntu:22.04@sha256:cb287cf26b15fded26828219b268886d76ea3963bc93495425dcf08225c86e9f\n", Built: true}))
	}
	type op struct {
		method, path string
		status       int
	}
	ops := func(env string) []op {
		ep := p + "/computer-environments/" + env
		return []op{{"POST", ep + "/build", 202}, {"POST", ep + "/use", 200}, {"POST", ep + "/promote", 200},
			{"POST", p + "/computer/reset", 200}, {"DELETE", ep, 200}} // delete last: it ends the environment
	}
	env := newEnv()
	for _, o := range ops(env) {
		for _, body := range []string{`null`, `[]`, `{`, `nul`, `"x"`} {
			tg.call(t, o.method, o.path, ws.APIKey, body).wantError(t, shared.CodeValidation)
		}
	}
	var page shared.Page[environments.Build]
	tg.call(t, "GET", p+"/computer-environments/"+env+"/builds", ws.APIKey, nil).decode(t, &page)
	var e environments.Environment
	tg.call(t, "GET", p+"/computer-environments/"+env, ws.APIKey, nil).decode(t, &e)
	if len(page.Items) != 1 || e.Sharing != environments.SharingUser {
		t.Errorf("after refused writes: %d builds (want the seeded one), sharing %s (want user)", len(page.Items), e.Sharing)
	}
	if c, ok := srv.Computer(ws.ProjectID, ws.UserID); ok {
		t.Errorf("a refused boot or reset touched the computer: %+v", c)
	}
	for _, body := range []any{nil, "", " \n\t ", `{}`, " {} "} {
		for _, o := range ops(newEnv()) {
			if r := tg.call(t, o.method, o.path, ws.APIKey, body); r.status != o.status {
				t.Errorf("%s %s with body %#v: %d %s, want %d", o.method, o.path, body, r.status, r.body, o.status)
			}
		}
	}
	srv.Wait() // the accepted builds finish before the server closes
}
