package projectopstest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// The first failed assert stops the iteration, as the service's step
// executor does: every later step is reported skipped and never runs, so
// a later toolCall makes no call.
func TestFailedAssertSkipsLaterSteps(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	it, steps := f.runOne(t, evals.Test{Title: "halt", Steps: []evals.Step{
		evals.ToolCallStep("first", "echo", map[string]any{"message": "hi"}),
		evals.AssertCalledWith("wrong", "echo", map[string]any{"message": "bye"}),
		evals.ToolCallStep("after", "add", map[string]any{"a": 1, "b": 2}),
		evals.AssertCalledWith("later", "add", map[string]any{"a": 1}),
	}})
	if it.Result != evals.ResultFailed || steps[1].Status != evals.StepFail {
		t.Fatalf("result %s, failing assert %+v", it.Result, steps[1])
	}
	for _, st := range steps[2:] {
		if st.Status != evals.StepSkipped || st.Reason != "not executed: assert step wrong failed" {
			t.Errorf("step %s after the failed assert: %s (%q); want skipped", st.StepID, st.Status, st.Reason)
		}
	}
	if len(it.ActualToolCalls) != 1 {
		t.Errorf("actual tool calls = %+v; want only the echo made before the failed assert", it.ActualToolCalls)
	}
}

// A failed interact step stops the iteration the same way.
func TestFailedInteractSkipsLaterSteps(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithInteractHandler(func(context.Context, evals.Step) error {
		return errors.New("widget not mounted")
	}))
	it, steps := f.runOne(t, evals.Test{Title: "halt", Steps: []evals.Step{
		evals.InteractStep("click", map[string]any{"type": "click"}),
		evals.ToolCallStep("after", "echo", map[string]any{"message": "hi"}),
	}})
	if it.Result != evals.ResultFailed || steps[0].Status != evals.StepFail {
		t.Fatalf("result %s, interact step %+v", it.Result, steps[0])
	}
	if steps[1].Status != evals.StepSkipped || len(it.ActualToolCalls) != 0 {
		t.Errorf("later step %s (%q), calls %+v; want skipped and no call made", steps[1].Status, steps[1].Reason, it.ActualToolCalls)
	}
}
