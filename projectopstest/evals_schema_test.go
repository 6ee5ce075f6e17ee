package projectopstest_test

import (
	"encoding/json"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/shared"
)

// TestEvalResponsesMatchReference holds every eval route's answers to the
// reference schemas.
func TestEvalResponsesMatchReference(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	f := newEvalFix(t, noLimit)
	tg := inproc(f.srv)
	key, p := f.ws.APIKey, "/projects/"+f.ws.ProjectID
	suite := evals.CreateSuiteParams{Name: "s", ServerIDs: []string{f.serverID}, Model: "openai/gpt-4o-mini",
		Tests: []evals.Test{echoTest("ok", "x"), echoTest("no trace "+"[no-trace]", "y")}}
	var created evals.SuiteCreated
	r := tg.call(t, "POST", p+"/eval-suites", key, suite)
	r.decode(t, &created)
	check := func(method, path, specPath string, body any, status int) []byte {
		t.Helper()
		r := tg.call(t, method, path, key, body)
		if r.status != status {
			t.Fatalf("%s %s: status %d, want %d (%s)", method, path, r.status, status, r.body)
		}
		var v any
		if err := json.Unmarshal(r.body, &v); err != nil {
			t.Fatal(err)
		}
		for _, e := range doc.check(doc.responseSchema(t, specPath, method, status), v, "body") {
			t.Errorf("%s %s %d: %s", method, path, status, e)
		}
		return r.body
	}
	check("POST", p+"/eval-suites", "/projects/{projectId}/eval-suites", suite, 201)
	var rc evals.RunCreated
	b := check("POST", p+"/eval-runs", "/projects/{projectId}/eval-runs", evals.RunParams{SuiteID: created.SuiteID}, 202)
	if err := json.Unmarshal(b, &rc); err != nil {
		t.Fatal(err)
	}
	f.awaitRun(t, rc.RunID)
	run := p + "/eval-runs/" + rc.RunID
	check("GET", run, "/projects/{projectId}/eval-runs/{runId}", nil, 200)
	var page shared.Page[evals.Iteration]
	b = check("GET", run+"/iterations?limit=1", "/projects/{projectId}/eval-runs/{runId}/iterations", nil, 200)
	if err := json.Unmarshal(b, &page); err != nil {
		t.Fatal(err)
	}
	it := run + "/iterations/" + page.Items[0].ID
	check("GET", it+"/trace", "/projects/{projectId}/eval-runs/{runId}/iterations/{iterationId}/trace", nil, 200)
	check("GET", it+"/steps", "/projects/{projectId}/eval-runs/{runId}/iterations/{iterationId}/steps", nil, 200)
	check("GET", p+"/eval-suites", "/projects/{projectId}/eval-suites", nil, 200)
	check("GET", p+"/eval-suites/"+created.SuiteID+"/runs", "/projects/{projectId}/eval-suites/{suiteId}/runs", nil, 200)
	// The reference gives the 409 no body schema; it is our error envelope.
	tg.call(t, "POST", run+"/cancel", key, nil).wantError(t, "CONFLICT")
	check("GET", p+"/eval-runs/run_nope", "/projects/{projectId}/eval-runs/{runId}", nil, 404)
	check("POST", p+"/eval-runs", "/projects/{projectId}/eval-runs", evals.RunParams{}, 400)
}
