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

// The turn's matcher takes an expected call's arguments with the test's
// matching (partial), not the assertion's argumentMatching, as the
// service's does: "ignore" on the assertion keeps its own row ok but does
// not excuse wrong arguments in the prompt's turn.
func TestAssertIgnoreStillMatchedPartiallyByTurn(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	it, steps := f.runOne(t, evals.Test{Title: "ignore", Steps: []evals.Step{
		evals.PromptStep("ask", "Use echo with message=ho"),
		{ID: "check", Kind: evals.KindAssert, Assertion: &evals.Assertion{Type: evals.AssertToolCalledWith,
			ToolName: "echo", Args: &evals.ArgMatcher{Args: map[string]any{"message": "hi"},
				ArgumentMatching: evals.ArgumentMatchingIgnore}}},
	}})
	if len(it.ActualToolCalls) != 1 || it.ActualToolCalls[0].Arguments["message"] != "ho" || steps[1].Status != evals.StepOK {
		t.Fatalf("precondition: calls = %+v, assert row %+v", it.ActualToolCalls, steps[1])
	}
	if it.Result != evals.ResultFailed {
		t.Errorf("iteration %s: echo called with message=ho, expected message=hi; want failed", it.Result)
	}
}
