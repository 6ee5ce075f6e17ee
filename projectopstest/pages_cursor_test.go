package projectopstest_test

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// An iterations cursor names its run: another run's is refused with 400
// naming cursor, as a cursor of another listing is, instead of being read
// as an offset into this run.
func TestIterationsCursorOfAnotherRunRefused(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	a := f.create(t, evals.RunParams{IterationOverride: 3, Tests: []evals.Test{echoTest("echo", "a")}})
	f.awaitRun(t, a.RunID)
	b := f.create(t, evals.RunParams{IterationOverride: 3, Tests: []evals.Test{echoTest("echo", "b")}})
	f.awaitRun(t, b.RunID)
	p, err := f.c.Evals.Runs.ListIterations(t.Context(), f.ws.ProjectID, a.RunID, &evals.IterationsParams{Limit: 1})
	if err != nil || p.NextCursor == "" {
		t.Fatalf("page of run A = %+v, %v", p, err)
	}
	inproc(f.srv).call(t, http.MethodGet, "/projects/"+f.ws.ProjectID+"/eval-runs/"+b.RunID+"/iterations?cursor="+p.NextCursor,
		f.ws.APIKey, nil).wantField(t, "cursor")
	if next, err := f.c.Evals.Runs.ListIterations(t.Context(), f.ws.ProjectID, a.RunID,
		&evals.IterationsParams{Limit: 1, Cursor: p.NextCursor}); err != nil || len(next.Items) != 1 {
		t.Errorf("run A's own next page = %+v, %v", next, err)
	}
}

// An environment that becomes visible between pages (a draft shared after
// the first page) is on a later page: the cursor points after the last
// item shown, not just before the next one then visible.
func TestEnvironmentSharedBetweenPagesIsListed(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	other := must[string](t)(srv.AddUser(projectopstest.UserSpec{OrganizationID: ws.OrganizationID, Role: projectopstest.RoleMember}))
	if err := srv.AddMember(ws.ProjectID, other, projectopstest.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	otherKey, _, err := srv.AddAPIKey(other, "other")
	if err != nil {
		t.Fatal(err)
	}
	add := func(owner, name string) string {
		return must[string](t)(srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: ws.ProjectID,
			OwnerUserID: owner, Name: name, Dockerfile: "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\n"}))
	}
	e1 := add(ws.UserID, "e1")
	e2 := add(other, "e2") // the other user's draft: not listed to ws.UserID yet
	e3 := add(ws.UserID, "e3")
	c := must[*projectops.Client](t)(srv.NewClient())
	p1, err := c.Environments.List(t.Context(), ws.ProjectID, &environments.ListParams{Limit: 1})
	if err != nil || len(p1.Items) != 1 || p1.Items[0].ID != e1 || p1.NextCursor == "" {
		t.Fatalf("page 1 = %+v, %v", p1, err)
	}
	oc := must[*projectops.Client](t)(srv.NewClient(option.WithAPIKey(otherKey)))
	if _, err := oc.Environments.Share(t.Context(), ws.ProjectID, e2); err != nil {
		t.Fatal(err)
	}
	var rest []string
	for e, err := range c.Environments.All(t.Context(), ws.ProjectID, &environments.ListParams{Limit: 1, Cursor: p1.NextCursor}) {
		if err != nil {
			t.Fatal(err)
		}
		rest = append(rest, e.ID)
	}
	if diff := cmp.Diff([]string{e2, e3}, rest); diff != "" {
		t.Errorf("pages after the first (-want +got):\n%s", diff)
	}
}
