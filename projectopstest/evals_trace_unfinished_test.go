package projectopstest_test

import (
	"net/http"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// An iteration that has not finished, or never will (cancelled), has no
// trace: the trace route answers 404 NOT_FOUND, reason
// TRACE_NOT_AVAILABLE, while the steps route answers 200 with one row per
// authored step, pending where the step has not run (api-spec.md 4.4).
func TestTraceNotAvailableUntilIterationFinishes(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalParallelism(1))
	tg := inproc(f.srv)
	ctx := t.Context()
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{blockTest("first"), blockTest("second")}})
	f.awaitBlocked(t)
	run := "/projects/" + f.ws.ProjectID + "/eval-runs/" + rc.RunID
	iters, err := sdktest.Collect(f.c.Evals.Runs.AllIterations(ctx, f.ws.ProjectID, rc.RunID, nil))
	if err != nil || len(iters) != 2 || iters[0].Status != evals.StatusRunning || iters[1].Status != evals.StatusPending {
		t.Fatalf("precondition: iterations %+v, %v; want one running, one pending", iters, err)
	}
	check := func(it evals.Iteration, state string, wantPending bool) {
		t.Helper()
		b := tg.call(t, http.MethodGet, run+"/iterations/"+it.ID+"/trace", f.ws.APIKey, nil).wantError(t, shared.CodeNotFound)
		if b.Details["reason"] != string(shared.ReasonTraceNotAvailable) {
			t.Errorf("%s iteration's trace: details %v, want reason TRACE_NOT_AVAILABLE", state, b.Details)
		}
		var page struct {
			Items []struct {
				StepID string           `json:"stepId"`
				Status evals.StepStatus `json:"status"`
			} `json:"items"`
		}
		tg.call(t, http.MethodGet, run+"/iterations/"+it.ID+"/steps", f.ws.APIKey, nil).decode(t, &page)
		if len(page.Items) != 2 || page.Items[0].StepID != "wait" || page.Items[1].StepID != "check" {
			t.Errorf("%s iteration's steps = %+v, want the two authored steps", state, page.Items)
			return
		}
		for _, s := range page.Items {
			if wantPending && s.Status != evals.StepPending {
				t.Errorf("%s iteration's step %s is %s, want pending", state, s.StepID, s.Status)
			}
		}
	}
	check(iters[0], "running", true)
	check(iters[1], "pending", true)
	if _, err := f.c.Evals.Runs.Cancel(ctx, f.ws.ProjectID, rc.RunID); err != nil {
		t.Fatal(err)
	}
	f.srv.Wait()
	iters, err = sdktest.Collect(f.c.Evals.Runs.AllIterations(ctx, f.ws.ProjectID, rc.RunID, nil))
	if err != nil || iters[0].Status != evals.StatusCancelled || iters[1].Status != evals.StatusCancelled {
		t.Fatalf("precondition: iterations %+v, %v; want both cancelled", iters, err)
	}
	check(iters[0], "cancelled while running", false)
	check(iters[1], "cancelled before it started", true)
}
