package projectopstest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// sendKeyed posts a run-create body with an x-mcpjam-idempotency-key.
func sendKeyed(t *testing.T, f *evalFix, key, body string) evals.RunCreated {
	t.Helper()
	req := must[*http.Request](t)(http.NewRequestWithContext(t.Context(), http.MethodPost,
		projectopstest.InProcessURL+"/projects/"+f.ws.ProjectID+"/eval-runs", strings.NewReader(body)))
	req.Header.Set("Authorization", "Bearer "+f.ws.APIKey)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Mcpjam-Idempotency-Key", key)
	resp := must[*http.Response](t)(inproc(f.srv).client.Do(req))
	defer resp.Body.Close()
	r := result{status: resp.StatusCode, header: resp.Header, body: must[[]byte](t)(readAll(resp))}
	var rc evals.RunCreated
	r.decode(t, &rc)
	return rc
}

// namedTest is an inline run test whose prompt echoes msg.
func namedTest(title, msg string) string {
	return `{"title":"` + title + `","runs":1,"model":"openai/gpt-4o-mini","provider":"openai",` +
		`"steps":[{"id":"p","kind":"prompt","prompt":"Use the echo tool with message=` + msg + `"}]}`
}

// A replay of run create still authors the request's inline tests before
// the run-level dedupe answers with the existing run (the service's
// prepareEvalRun authors first): a test the first request lacked is
// created and reported in caseUpsert.committed, in the suite the key
// names (by id or, for a suite created by name, the one the first request
// created).
func TestEvalRunReplayStillAuthorsCases(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	su := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("one", "a")}})
	f.awaitRun(t, su.RunID)
	for _, scope := range []string{`"suiteId":"` + su.SuiteID + `"`, `"suiteName":"by name","serverIds":["` + f.serverID + `"]`} {
		a := sendKeyed(t, f, "replay "+scope, `{`+scope+`,"tests":[`+namedTest("two", "b")+`]}`)
		b := sendKeyed(t, f, "replay "+scope, `{`+scope+`,"tests":[`+namedTest("two", "b")+`,`+namedTest("three", "c")+`]}`)
		if !b.Deduped || b.RunID != a.RunID || b.SuiteID != a.SuiteID {
			t.Fatalf("%s: the replay was not deduped: %+v vs %+v", scope, b, a)
		}
		var names []string
		for _, c := range b.CaseUpsert.Committed {
			names = append(names, c.Name)
		}
		if strings.Join(names, ",") != "two,three" {
			t.Errorf("%s: replay caseUpsert.committed = %v, want two and three", scope, names)
		}
		f.awaitRun(t, a.RunID)
		// The suite now holds "three": a plain rerun runs it.
		rerun := f.awaitRun(t, f.create(t, evals.RunParams{SuiteID: a.SuiteID}).RunID)
		if want := map[bool]int{true: 3, false: 2}[strings.HasPrefix(scope, `"suiteId"`)]; rerun.Summary.Total != want {
			t.Errorf("%s: a rerun after the replay ran %d iterations, want %d", scope, rerun.Summary.Total, want)
		}
	}
}
