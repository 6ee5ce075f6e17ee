package projectopstest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// wantCapRefusal asserts a 400 VALIDATION_ERROR carrying the service's
// details {totalCalls, cap}.
func wantCapRefusal(t *testing.T, r result, total int) {
	t.Helper()
	if r.status != http.StatusBadRequest {
		t.Fatalf("%d model calls: status %d %.200s, want 400 VALIDATION_ERROR", total, r.status, r.body)
	}
	b := r.wantError(t, shared.CodeValidation)
	if fmt.Sprint(b.Details["totalCalls"]) != fmt.Sprint(total) || fmt.Sprint(b.Details["cap"]) != "300" {
		t.Errorf("details = %v, want totalCalls %d and cap 300", b.Details, total)
	}
}

// The service caps one run at 300 model calls (iterations times prompt
// steps, summed over the request's tests, iterationOverride replacing
// runs): above it run create is 400 VALIDATION_ERROR with details
// {totalCalls, cap}, before anything is written (routes/shared/evals.ts
// MAX_TOTAL_LLM_CALLS, assertSuiteRunWithinCap in prepareEvalRun).
func TestEvalRunModelCallCap(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	tg := inproc(f.srv)
	base := "/projects/" + f.ws.ProjectID
	body := `{"suiteName":"too big","serverIds":["` + f.serverID + `"],"tests":` + promptTests(31, 10) + `}`
	wantCapRefusal(t, tg.call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, body), 310)
	body = `{"suiteName":"too big 2","iterationOverride":10,"serverIds":["` + f.serverID + `"],"tests":` + promptTests(31, 1) + `}`
	wantCapRefusal(t, tg.call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, body), 310)
	// A refused run authored nothing: no suite was created.
	if page, err := f.c.Evals.Suites.List(t.Context(), f.ws.ProjectID, nil); err != nil || len(page.Items) != 0 {
		t.Errorf("after the refusals the project has suites %+v (%v), want none", page, err)
	}
	body = `{"suiteName":"at cap","serverIds":["` + f.serverID + `"],"tests":` + promptTests(30, 10) + `}`
	if r := tg.call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, body); r.status != http.StatusAccepted {
		t.Errorf("30 tests x 10 runs (300 calls): status %d %.200s, want 202", r.status, r.body)
	}
}

// Only prompt steps call the model: a test of two prompt steps counts
// twice per iteration, a model-free one (a toolCall step) not at all.
func TestEvalRunModelCallCapCountsPromptSteps(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	base := "/projects/" + f.ws.ProjectID
	tests := make([]evals.Test, 0, 16)
	for i := range 15 {
		tests = append(tests, evals.Test{Title: fmt.Sprint("two prompts ", i), Runs: 10, Model: "openai/gpt-4o-mini",
			Steps: []evals.Step{evals.PromptStep("a", "say hi"), evals.PromptStep("b", "say bye")}})
	}
	tests = append(tests, evals.Test{Title: "model-free", Runs: 10, Model: "openai/gpt-4o-mini",
		Steps: []evals.Step{evals.ToolCallStep("x", "echo", map[string]any{"message": "a"})}})
	body := map[string]any{"suiteName": "s", "serverIds": []string{f.serverID}, "tests": tests}
	r := inproc(f.srv).call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, string(must[[]byte](t)(json.Marshal(body))))
	if r.status != http.StatusAccepted {
		t.Fatalf("15 tests of 2 prompts x 10 runs and a model-free one (300 calls): status %d %.200s, want 202", r.status, r.body)
	}
	tests[0].Steps = append(tests[0].Steps, evals.PromptStep("c", "again"))
	body["suiteName"] = "s2"
	wantCapRefusal(t, inproc(f.srv).call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, string(must[[]byte](t)(json.Marshal(body)))), 310)
}

// A bare rerun (suiteId, no tests) counts the suite's stored cases, and
// caseIds narrows the count to the cases it names. Suite create authors
// over the cap: only a run is capped (the service's suite route has no
// cap check).
func TestEvalRerunModelCallCapCountsStoredCases(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	tg := inproc(f.srv)
	base := "/projects/" + f.ws.ProjectID
	suite := `{"name":"big","serverIds":["` + f.serverID + `"],"model":"openai/gpt-4o-mini","tests":` + promptTests(31, 10) + `}`
	r := tg.call(t, http.MethodPost, base+"/eval-suites", f.ws.APIKey, suite)
	if r.status != http.StatusCreated {
		t.Fatalf("suite create of 310 calls: status %d %.200s, want 201", r.status, r.body)
	}
	var sc evals.SuiteCreated
	r.decode(t, &sc)
	wantCapRefusal(t, tg.call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, `{"suiteId":"`+sc.SuiteID+`"}`), 310)
	one := `{"suiteId":"` + sc.SuiteID + `","caseIds":["` + sc.CaseUpsert.Committed[0].ID + `"]}`
	if r := tg.call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, one); r.status != http.StatusAccepted {
		t.Errorf("a rerun scoped to one case (10 calls): status %d %.200s, want 202", r.status, r.body)
	}
}
