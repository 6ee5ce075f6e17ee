package projectopstest_test

import (
	"net/http"
	"testing"

	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// The cap on runs in flight is the organization's (api-spec.md 4.4, 8):
// with the cap at one and a run held in the default project, a second key
// of the same organization, in another of its projects, is refused 429
// RATE_LIMITED, reason CONCURRENT_RUN_LIMIT, while a key of another
// organization starts its run (202).
func TestConcurrentRunCapIsPerOrganization(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	f := newEvalFix(t, holdRuns(release), projectopstest.WithEvalConcurrency(1))
	tg := inproc(f.srv)
	must := sdktest.Must(t)
	body := func(serverID string) map[string]any {
		return map[string]any{"suiteName": "s", "serverIds": []string{serverID}, "tests": []any{map[string]any{
			"title": "t", "model": "anthropic/claude-haiku-4.5",
			"steps": []any{map[string]any{"id": "p", "kind": "prompt", "prompt": "hi"}}}}}
	}
	if r := tg.call(t, http.MethodPost, "/projects/"+f.ws.ProjectID+"/eval-runs", f.ws.APIKey, body(f.serverID)); r.status != http.StatusAccepted {
		t.Fatalf("first run: %d %s", r.status, r.body)
	}
	// A key of another user of the same organization, in another project.
	user := must(f.srv.AddUser(projectopstest.UserSpec{OrganizationID: f.ws.OrganizationID, Role: projectopstest.RoleOwner}))
	key, _, err := f.srv.AddAPIKey(user, "second")
	if err != nil {
		t.Fatal(err)
	}
	sibling := must(f.srv.AddProject(projectopstest.ProjectSpec{OrganizationID: f.ws.OrganizationID, Name: "Sibling"}))
	siblingServer := must(f.srv.AddServer(projectopstest.ServerSpec{ProjectID: sibling, Name: "s", URL: "http://127.0.0.1:1/mcp"}))
	b := tg.call(t, http.MethodPost, "/projects/"+sibling+"/eval-runs", key, body(siblingServer)).wantError(t, shared.CodeRateLimited)
	if b.Details["reason"] != string(shared.ReasonConcurrentRunLimit) {
		t.Errorf("same organization: details %v, want reason CONCURRENT_RUN_LIMIT", b.Details)
	}
	// Another organization has a cap of its own.
	org := must(f.srv.AddOrganization(projectopstest.OrganizationSpec{Name: "Elsewhere"}))
	owner := must(f.srv.AddUser(projectopstest.UserSpec{OrganizationID: org, Role: projectopstest.RoleOwner}))
	otherKey, _, err := f.srv.AddAPIKey(owner, "other")
	if err != nil {
		t.Fatal(err)
	}
	project := must(f.srv.AddProject(projectopstest.ProjectSpec{OrganizationID: org, Name: "Theirs"}))
	server := must(f.srv.AddServer(projectopstest.ServerSpec{ProjectID: project, Name: "s", URL: "http://127.0.0.1:1/mcp"}))
	if r := tg.call(t, http.MethodPost, "/projects/"+project+"/eval-runs", otherKey, body(server)); r.status != http.StatusAccepted {
		t.Errorf("another organization: %d %s, want 202", r.status, r.body)
	}
}
