package projectopstest_test

import (
	"errors"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// With WithEvalStepDelay a client sees a run in flight as against the
// service: it stays running, meets the concurrency cap, and cancels
// promptly. The delay is long, so nothing here depends on timing.
func TestEvalStepDelayPacesRuns(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalStepDelay(time.Hour))
	ctx := t.Context()
	test := evals.Test{Title: "paced", Steps: []evals.Step{evals.ToolCallStep("call", "echo", map[string]any{"message": "hi"})}}
	first := f.create(t, evals.RunParams{Tests: []evals.Test{test}})
	second := f.create(t, evals.RunParams{Tests: []evals.Test{test}})
	run, err := f.c.Evals.Runs.Get(ctx, f.ws.ProjectID, first.RunID)
	if err != nil || run.Status.Terminal() {
		t.Fatalf("paced run = %+v, %v; want it in flight", run, err)
	}
	_, err = f.c.Evals.Runs.Create(ctx, f.ws.ProjectID, evals.RunParams{SuiteName: "third", ServerIDs: []string{f.serverID},
		Tests: []evals.Test{{Title: "t", Model: "anthropic/claude-haiku-4.5", Steps: test.Steps}}})
	var apiErr *projectops.Error
	if !errors.As(err, &apiErr) || apiErr.Reason != projectops.ReasonConcurrentRunLimit || apiErr.Details["maxConcurrentRuns"] != float64(2) {
		t.Fatalf("third run while two are paced: %v (details %v), want CONCURRENT_RUN_LIMIT with maxConcurrentRuns 2, as the service names the cap", err, apiErr.Details)
	}
	for _, id := range []string{first.RunID, second.RunID} {
		if run, err := f.c.Evals.Runs.Cancel(ctx, f.ws.ProjectID, id); err != nil || run.Status != evals.StatusCancelled {
			t.Fatalf("cancel %s: %+v, %v", id, run, err)
		}
	}
	f.srv.Wait() // the paced steps end with their runs
}

func TestEvalStepDelayRefusesNegative(t *testing.T) {
	t.Parallel()
	if _, err := projectopstest.NewServer(projectopstest.WithEvalStepDelay(-time.Second)); err == nil {
		t.Fatal("a negative step delay was accepted")
	}
}
