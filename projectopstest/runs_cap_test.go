package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// TestMaxRunsDropsOldestFinished: under WithMaxRuns(2) the oldest finished
// runs are dropped as new ones arrive (a run in flight never is), their
// iterations go with them, and reading a dropped run answers 404 with
// reason RUN_DROPPED, only in its own project.
func TestMaxRunsDropsOldestFinished(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithMaxRuns(2))
	ws := srv.Default()
	tg := inproc(srv)
	base := "/projects/" + ws.ProjectID
	post := func(route, body string) string {
		t.Helper()
		var out map[string]any
		tg.call(t, "POST", base+"/eval-ingest/"+route, ws.APIKey, body).decode(t, &out)
		id, _ := out["runId"].(string)
		return id
	}
	report := func(ext string) string {
		return post("report", `{"suiteName":"s","externalRunId":"`+ext+`","results":[{"caseTitle":"a","passed":true},{"caseTitle":"b","passed":false}]}`)
	}
	inFlight := post("runs/start", `{"suiteName":"s","externalRunId":"a"}`)
	b, c := report("b"), report("c")
	d := report("d")
	for _, id := range []string{inFlight, d} {
		if r := tg.call(t, "GET", base+"/eval-runs/"+id, ws.APIKey, nil); r.status != 200 {
			t.Errorf("kept run %s: %d %s", id, r.status, r.body)
		}
	}
	for _, id := range []string{b, c} {
		for _, path := range []string{"", "/iterations"} {
			body := tg.call(t, "GET", base+"/eval-runs/"+id+path, ws.APIKey, nil).wantError(t, shared.CodeNotFound)
			if body.Details["reason"] != string(projectopstest.ReasonRunDropped) {
				t.Errorf("dropped run %s%s: details %v", id, path, body.Details)
			}
		}
		if _, ok := srv.IngestedIterations(id); ok {
			t.Errorf("dropped run %s still holds its iterations", id)
		}
	}
	if n := len(srv.IngestedRuns("")); n != 2 {
		t.Errorf("%d runs stored, want 2", n)
	}
	// Another project's caller learns nothing about the dropped run.
	other := must[string](t)(srv.AddProject(projectopstest.ProjectSpec{OrganizationID: ws.OrganizationID, Name: "Other"}))
	body := tg.call(t, "GET", "/projects/"+other+"/eval-runs/"+b, ws.APIKey, nil).wantError(t, shared.CodeNotFound)
	if body.Details["reason"] != nil {
		t.Errorf("other project sees %v", body.Details)
	}
	// Reusing a dropped run's externalRunId starts a new run.
	if again := post("runs/start", `{"suiteName":"s","externalRunId":"b"}`); again == b {
		t.Error("runs/start reused a dropped run")
	}
}

// TestRunNumbersNeverRepeat: a suite's runs are numbered 1, 2, 3, … even
// after WithMaxRuns dropped the oldest (the number was one more than the
// runs still stored, so every new run got the same one).
func TestRunNumbersNeverRepeat(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithMaxRuns(2))
	su, err := f.c.Evals.Suites.Create(t.Context(), f.ws.ProjectID, evals.CreateSuiteParams{Name: "s",
		ServerIDs: []string{f.serverID}, Model: "openai/gpt-4o-mini", Tests: []evals.Test{echoTest("a", "x")}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 5; i++ {
		rc, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, evals.RunParams{SuiteID: su.SuiteID})
		if err != nil {
			t.Fatal(err)
		}
		if run := f.awaitRun(t, rc.RunID); run.RunNumber != i {
			t.Errorf("run %d of the suite: runNumber %d", i, run.RunNumber)
		}
	}
}
