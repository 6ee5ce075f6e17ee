package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// A toolCalledWith assert following a prompt step is also an expected call
// of that prompt's turn, looked for among that turn's calls only, as the
// service's matcher does: a matching call made by an earlier toolCall step
// does not meet it, though the assert's own row (judged on every call so
// far) reads ok.
func TestAssertAfterPromptIsScopedToItsTurn(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	it, steps := f.runOne(t, evals.Test{Title: "earlier call", Steps: []evals.Step{
		evals.ToolCallStep("setup", "echo", map[string]any{"message": "hi"}),
		evals.PromptStep("ask", "Just say hello, call nothing"),
		evals.AssertCalledWith("check", "echo", map[string]any{"message": "hi"}),
	}})
	if len(it.ActualToolCalls) != 1 || steps[2].Status != evals.StepOK {
		t.Fatalf("precondition: calls = %+v, assert row %+v", it.ActualToolCalls, steps[2])
	}
	if it.Result != evals.ResultFailed {
		t.Errorf("iteration %s: the prompt turn made no call, yet its expected echo counted as met; want failed", it.Result)
	}
}

// A toolCall step opens a turn of its own: an assert after it belongs to
// that model-free turn, not to the prompt before it.
func TestAssertAfterToolCallIsNotThePromptsExpectation(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	it, _ := f.runOne(t, evals.Test{Title: "prompt then setup", Steps: []evals.Step{
		evals.PromptStep("ask", "Just say hello, call nothing"),
		evals.ToolCallStep("setup", "echo", map[string]any{"message": "hi"}),
		evals.AssertCalledWith("check", "echo", map[string]any{"message": "hi"}),
	}})
	if it.Result != evals.ResultPassed {
		t.Errorf("iteration %s; want passed", it.Result)
	}
}
