package projectopstest_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

const evalRunsRoute = "POST /projects/{projectId}/eval-runs"

// An AfterRoute Drop loses the answer of a run creation that happened: the
// SDK retries with the same idempotency key and gets the run the first
// attempt started, and the double holds one suite and one run.
func TestFaultAfterRouteDropRetriedCreateGetsFirstRun(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	c := must[*projectops.Client](t)(f.srv.NewClient(option.WithRetryBackoff(time.Millisecond, 2*time.Millisecond)))
	f.srv.SetFault(evalRunsRoute, projectopstest.Fault{AfterRoute: true, Drop: true, Times: 1})
	rc, err := c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, evals.RunParams{SuiteName: "lost answer",
		ServerIDs: []string{f.serverID}, Tests: []evals.Test{{Title: "t", Model: "anthropic/claude-haiku-4.5",
			Steps: []evals.Step{evals.PromptStep("ask", "Use the echo tool with message=hi")}}}})
	if err != nil {
		t.Fatal(err)
	}
	var statuses []int
	for _, r := range f.srv.Requests() {
		if r.Route == evalRunsRoute {
			statuses = append(statuses, r.Status)
		}
	}
	if len(statuses) != 2 || statuses[0] != 0 || statuses[1]/100 != 2 {
		t.Fatalf("eval-run creations answered %v, want a dropped one and then a success", statuses)
	}
	suites, err := items(f.c.Evals.Suites.List(t.Context(), f.ws.ProjectID, nil))
	if err != nil || len(suites) != 1 || suites[0].ID != rc.SuiteID {
		t.Fatalf("suites = %+v, %v; want only %s", suites, err, rc.SuiteID)
	}
	runs, err := items(f.c.Evals.Suites.ListRuns(t.Context(), f.ws.ProjectID, rc.SuiteID, nil))
	if err != nil || len(runs) != 1 || runs[0].ID != rc.RunID {
		t.Fatalf("runs = %+v, %v; want only %s", runs, err, rc.RunID)
	}
	f.awaitRun(t, rc.RunID)
}

// Without retries the caller sees the lost answer as a transport error,
// yet the route ran: the run exists.
func TestFaultAfterRouteDropRunsTheRoute(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	c := must[*projectops.Client](t)(f.srv.NewClient(option.WithMaxRetries(0)))
	f.srv.SetFault(evalRunsRoute, projectopstest.Fault{AfterRoute: true, Drop: true})
	_, err := c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, evals.RunParams{SuiteName: "lost answer",
		ServerIDs: []string{f.serverID}, Tests: []evals.Test{{Title: "t", Model: "anthropic/claude-haiku-4.5",
			Steps: []evals.Step{evals.PromptStep("ask", "Use the echo tool with message=hi")}}}})
	if err == nil {
		t.Fatal("a dropped answer reached the caller")
	}
	if pe := (*projectops.Error)(nil); errors.As(err, &pe) {
		t.Fatalf("err = %v, want a transport error, not an API error", err)
	}
	f.srv.ClearFaults()
	suites, err := items(f.c.Evals.Suites.List(t.Context(), f.ws.ProjectID, nil))
	if err != nil || len(suites) != 1 {
		t.Fatalf("suites = %+v, %v; want the one the dropped request created", suites, err)
	}
	runs, err := items(f.c.Evals.Suites.ListRuns(t.Context(), f.ws.ProjectID, suites[0].ID, nil))
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs = %+v, %v; want the one the dropped request started", runs, err)
	}
	f.awaitRun(t, runs[0].ID)
}

// An AfterRoute error replaces the route's answer after
// the write happened; an AfterRoute Latency lets the route's own answer
// through. Both transports.
func TestFaultAfterRouteAnswers(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	route := "POST /projects/{projectId}/hosts"
	hostsPath := "/projects/" + ws.ProjectID + "/hosts"
	for _, tg := range targets(t, srv) {
		srv.SetFault(route, projectopstest.Fault{AfterRoute: true, Status: http.StatusBadGateway, RetryAfter: time.Second, Times: 1})
		r := tg.call(t, "POST", hostsPath, ws.APIKey, map[string]any{"name": "replaced " + tg.name, "template": "claude"})
		r.wantError(t, shared.CodeServerUnreachable)
		if got := r.header.Get("Retry-After"); got != "1" {
			t.Errorf("%s: Retry-After %q, want the fault's 1", tg.name, got)
		}
		srv.SetFault(route, projectopstest.Fault{AfterRoute: true, Latency: time.Millisecond, Times: 1})
		var created struct{ ID string }
		tg.call(t, "POST", hostsPath, ws.APIKey, map[string]any{"name": "delayed " + tg.name, "template": "claude"}).decode(t, &created)
		if created.ID == "" {
			t.Errorf("%s: the delayed answer has no host id", tg.name)
		}
		var page rawPage
		tg.call(t, "GET", hostsPath, ws.APIKey, nil).decode(t, &page)
		found := map[string]bool{}
		for _, h := range page.Items {
			found[h["name"].(string)] = true
		}
		if !found["replaced "+tg.name] || !found["delayed "+tg.name] {
			t.Errorf("%s: hosts %v, want both created", tg.name, found)
		}
	}
	for _, r := range srv.Requests() {
		if r.Route == route && r.KeyID != ws.APIKeyID {
			t.Errorf("request %s logged KeyID %q, want %q", r.RequestID, r.KeyID, ws.APIKeyID)
		}
	}
}
