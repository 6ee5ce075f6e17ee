package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
)

// TestIterationDurationAndTokensNullUntilKnown: the double sends
// durationMs and tokensUsed as the reference gives them (number|null,
// durationMs null until terminal). A running iteration and one cancelled
// before it started have neither; a finished model-free iteration (a
// toolCall step, no prompt) used 0 tokens, which is a value, not null.
func TestIterationDurationAndTokensNullUntilKnown(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	f := newEvalFix(t, projectopstest.WithClock(clk.Now), projectopstest.WithEvalParallelism(1))
	quick := evals.Test{Title: "quick", Steps: []evals.Step{evals.ToolCallStep("call", "echo", map[string]any{"message": "hi"})}}
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{quick}})
	f.awaitRun(t, rc.RunID)
	iters, err := sdktest.Collect(f.c.Evals.Runs.AllIterations(t.Context(), f.ws.ProjectID, rc.RunID, nil))
	if err != nil {
		t.Fatal(err)
	}
	if it := iters[0]; it.Status != evals.StatusCompleted || it.TokensUsed == nil || *it.TokensUsed != 0 || it.DurationMs == nil {
		t.Errorf("finished model-free iteration: status %s, tokensUsed %v, durationMs %v; want 0 tokens and a duration",
			it.Status, ptrVal(it.TokensUsed), ptrVal(it.DurationMs))
	}

	rc = f.create(t, evals.RunParams{Tests: []evals.Test{blockTest("running"), blockTest("queued")}})
	f.awaitBlocked(t)
	iters, err = sdktest.Collect(f.c.Evals.Runs.AllIterations(t.Context(), f.ws.ProjectID, rc.RunID, nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range iters {
		if it.DurationMs != nil || it.TokensUsed != nil {
			t.Errorf("%s iteration %s: durationMs %v, tokensUsed %v; want null before it is terminal",
				it.Status, it.Title, ptrVal(it.DurationMs), ptrVal(it.TokensUsed))
		}
	}
	if _, err := f.c.Evals.Runs.Cancel(t.Context(), f.ws.ProjectID, rc.RunID); err != nil {
		t.Fatal(err)
	}
	f.srv.Wait()
	iters, err = sdktest.Collect(f.c.Evals.Runs.AllIterations(t.Context(), f.ws.ProjectID, rc.RunID, nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range iters {
		if it.Title == "queued" && (it.Status != evals.StatusCancelled || it.DurationMs != nil || it.TokensUsed != nil) {
			t.Errorf("iteration cancelled before it started: status %s, durationMs %v, tokensUsed %v; want null",
				it.Status, ptrVal(it.DurationMs), ptrVal(it.TokensUsed))
		}
	}
}
