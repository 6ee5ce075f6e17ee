package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// A negative test fails when the model calls a tool. A toolCall step is a
// fixture, not the model's choice: the service's matcher exempts its turn,
// so a negative test that sets up state with a toolCall and whose prompt
// calls nothing passes; the same call made by the model fails it.
func TestNegativeTestExemptsToolCallSteps(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	it, _ := f.runOne(t, evals.Test{Title: "setup then quiet", IsNegativeTest: true, Steps: []evals.Step{
		evals.ToolCallStep("setup", "echo", map[string]any{"message": "hi"}),
		evals.PromptStep("ask", "Just say hello, call nothing"),
	}})
	if it.Result != evals.ResultPassed {
		t.Errorf("negative test whose only call is a toolCall step: %s (calls %+v); want passed", it.Result, it.ActualToolCalls)
	}
	it, _ = f.runOne(t, evals.Test{Title: "noisy", IsNegativeTest: true, Steps: []evals.Step{
		evals.PromptStep("ask", "Use echo with message=hi"),
	}})
	if it.Result != evals.ResultFailed {
		t.Errorf("negative test whose prompt calls echo: %s; want failed", it.Result)
	}
}

// An assert step is judged where it stands whatever the negative flag, as
// the service's step executor judges it (only its matcher sets expected
// calls aside): a toolCalledWith assert in a negative test fails when the
// tool was not called, and when it was the negative rule fails the test.
func TestNegativeTestStillEvaluatesAssertSteps(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	it, steps := f.runOne(t, evals.Test{Title: "quiet but asserts", IsNegativeTest: true, Steps: []evals.Step{
		evals.PromptStep("ask", "Just say hello, call nothing"),
		evals.AssertCalledWith("must-echo", "echo", map[string]any{"message": "hi"}),
	}})
	if len(it.ActualToolCalls) != 0 {
		t.Fatalf("precondition: calls = %+v", it.ActualToolCalls)
	}
	if steps[1].Status != evals.StepFail || it.Result != evals.ResultFailed {
		t.Errorf("quiet: assert step %s (%q), iteration %s; want the assert failed and the iteration failed",
			steps[1].Status, steps[1].Reason, it.Result)
	}
	it, steps = f.runOne(t, evals.Test{Title: "noisy", IsNegativeTest: true, Steps: []evals.Step{
		evals.PromptStep("ask", "Use echo with message=hi"),
		evals.AssertCalledWith("must-echo", "echo", map[string]any{"message": "hi"}),
	}})
	if steps[1].Status != evals.StepOK || it.Result != evals.ResultFailed {
		t.Errorf("noisy: assert step %s (%q), iteration %s; want the assert ok and the iteration failed",
			steps[1].Status, steps[1].Reason, it.Result)
	}
}
