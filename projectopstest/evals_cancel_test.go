package projectopstest_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// Cancelling a cancelled run is not an error (api-spec.md section 3): 200
// with the run as it is, and the run a read shows is byte for byte what
// it was before the second cancel.
func TestCancelCancelledRunLeavesItUnchanged(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalParallelism(1))
	tg := inproc(f.srv)
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{blockTest("first"), blockTest("second")}})
	f.awaitBlocked(t)
	run := "/projects/" + f.ws.ProjectID + "/eval-runs/" + rc.RunID
	if r := tg.call(t, http.MethodPost, run+"/cancel", f.ws.APIKey, nil); r.status != http.StatusOK {
		t.Fatalf("first cancel: %d %s", r.status, r.body)
	}
	f.srv.Wait() // the cancelled run's goroutines are done: nothing else may change it
	before := tg.call(t, http.MethodGet, run, f.ws.APIKey, nil)
	again := tg.call(t, http.MethodPost, run+"/cancel", f.ws.APIKey, nil)
	after := tg.call(t, http.MethodGet, run, f.ws.APIKey, nil)
	var got struct {
		Status evals.Status `json:"status"`
	}
	again.decode(t, &got)
	if again.status != http.StatusOK || got.Status != evals.StatusCancelled {
		t.Errorf("second cancel: %d %s, want 200 with the run cancelled", again.status, again.body)
	}
	if string(before.body) != string(after.body) {
		t.Errorf("the second cancel changed the run:\nbefore: %s\nafter:  %s", before.body, after.body)
	}
	if !sameJSON(t, again.body, after.body) {
		t.Errorf("second cancel answered %s, a read shows %s", again.body, after.body)
	}
}

// A failed run is terminal: cancelling it is 409 CONFLICT (api-spec.md
// section 3, section 7 rule 4), and the run stays as it was.
func TestCancelFailedRunConflicts(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	tg := inproc(f.srv)
	down, err := f.srv.AddServer(projectopstest.ServerSpec{ProjectID: f.ws.ProjectID, Name: "down",
		TransportType: "http", URL: "http://127.0.0.1:1/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	rc := f.create(t, evals.RunParams{ServerIDs: []string{down}, Tests: []evals.Test{echoTest("echo", "hi")}})
	if r := f.awaitRun(t, rc.RunID); r.Status != evals.StatusFailed {
		t.Fatalf("precondition: run %s, want failed", r.Status)
	}
	f.srv.Wait()
	run := "/projects/" + f.ws.ProjectID + "/eval-runs/" + rc.RunID
	before := tg.call(t, http.MethodGet, run, f.ws.APIKey, nil)
	tg.call(t, http.MethodPost, run+"/cancel", f.ws.APIKey, nil).wantError(t, shared.CodeConflict)
	if after := tg.call(t, http.MethodGet, run, f.ws.APIKey, nil); string(before.body) != string(after.body) {
		t.Errorf("the refused cancel changed the run:\nbefore: %s\nafter:  %s", before.body, after.body)
	}
}

// sameJSON reports whether a and b hold the same JSON value.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatal(err)
	}
	ea, _ := json.Marshal(va)
	eb, _ := json.Marshal(vb)
	return string(ea) == string(eb)
}
