package projectopstest_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// caseIds scopes a suite run to those stored cases: only their iterations
// run, ids of no case of the suite are ignored, and on a bare rerun none
// belonging is 404 NOT_FOUND "None of the requested caseIds belong to this
// suite" (the service's prepareEvalRun).
func TestEvalRunCaseIDsScopeTheRun(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	tg := inproc(f.srv)
	base := "/projects/" + f.ws.ProjectID
	suite := `{"name":"two","serverIds":["` + f.serverID + `"],"model":"openai/gpt-4o-mini","tests":[` +
		`{"title":"first","steps":[{"id":"p","kind":"prompt","prompt":"Use the echo tool with message=a"}]},` +
		`{"title":"second","steps":[{"id":"p","kind":"prompt","prompt":"Use the echo tool with message=b"}]}]}`
	var sc evals.SuiteCreated
	tg.call(t, http.MethodPost, base+"/eval-suites", f.ws.APIKey, suite).decode(t, &sc)
	if len(sc.CaseUpsert.Committed) != 2 {
		t.Fatalf("setup: caseUpsert %+v", sc.CaseUpsert)
	}
	first := sc.CaseUpsert.Committed[0].ID
	var rc evals.RunCreated
	tg.call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, `{"suiteId":"`+sc.SuiteID+`","caseIds":["`+first+`","case_nope"]}`).decode(t, &rc)
	f.awaitRun(t, rc.RunID)
	iters := f.iterations(t, rc.RunID)
	if len(iters) != 1 || iters[0].TestCaseID != first {
		var got []string
		for _, it := range iters {
			got = append(got, it.TestCaseID+"/"+it.Title)
		}
		t.Errorf("run scoped to case %s executed %v, want that case alone", first, got)
	}
	nope := tg.call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, `{"suiteId":"`+sc.SuiteID+`","caseIds":["case_nope"]}`)
	if nope.status != http.StatusNotFound {
		t.Fatalf("caseIds naming no case of the suite: status %d %.200s, want 404 NOT_FOUND", nope.status, nope.body)
	}
	if b := nope.wantError(t, shared.CodeNotFound); b.Message != "None of the requested caseIds belong to this suite" {
		t.Errorf("message %q", b.Message)
	}
	for _, bad := range []string{`[]`, `[""]`, `null`} {
		r := tg.call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, `{"suiteId":"`+sc.SuiteID+`","caseIds":`+bad+`}`)
		if b := r.wantError(t, shared.CodeValidation); b.Details["field"] == nil {
			t.Errorf("caseIds %s: details %v, want a field", bad, b.Details)
		}
	}
}

// With inline tests the service authors before its backend scopes the run
// (its 404 is a bare rerun's): the tests are upserted, the run executes
// the named stored cases, and caseIds naming none of the suite's cases is
// the bare rerun's 404 after authoring (the double's choice; the double
// refused it before authoring).
func TestEvalRunCaseIDsWithInlineTestsAuthorFirst(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("one", "a")}})
	f.awaitRun(t, rc.RunID)
	stored := f.iterations(t, rc.RunID)[0].TestCaseID
	scoped := f.create(t, evals.RunParams{SuiteID: rc.SuiteID, CaseIDs: []string{stored},
		Tests: []evals.Test{echoTest("two", "b")}})
	f.awaitRun(t, scoped.RunID)
	if iters := f.iterations(t, scoped.RunID); len(iters) != 1 || iters[0].TestCaseID != stored {
		t.Errorf("run scoped to case %s with a new inline test executed %+v, want that case alone", stored, iters)
	}
	if c := scoped.CaseUpsert.Committed; len(c) != 1 || c[0].Name != "two" {
		t.Errorf("caseUpsert.committed %+v, want the inline test two", c)
	}
	three := echoTest("three", "c")
	three.Model = "anthropic/claude-haiku-4.5"
	_, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, evals.RunParams{SuiteID: rc.SuiteID,
		CaseIDs: []string{"case_nope"}, Tests: []evals.Test{three}})
	var e *shared.Error
	if !errors.As(err, &e) || e.Code != shared.CodeNotFound || e.Message != "None of the requested caseIds belong to this suite" {
		t.Fatalf("caseIds naming no case, with inline tests: err = %v, want 404 NOT_FOUND", err)
	}
	rerun := f.awaitRun(t, f.create(t, evals.RunParams{SuiteID: rc.SuiteID}).RunID)
	if rerun.Summary.Total != 3 {
		t.Errorf("a bare rerun after both ran %d iterations, want 3 (one, two and three authored)", rerun.Summary.Total)
	}
}
