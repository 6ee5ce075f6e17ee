package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// A tool that reports isError during a prompt step fails the iteration,
// as the service's verdict does by default even with no assertion;
// advancedConfig.failOnToolError false turns that off.
func TestPromptToolIsErrorFailsIteration(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	test := evals.Test{Title: "model hits an erroring tool", Steps: []evals.Step{
		evals.PromptStep("ask", "Use the broken tool"),
	}}
	it, _ := f.runOne(t, test)
	if len(it.ActualToolCalls) != 1 || it.ActualToolCalls[0].ToolName != "broken" || !it.ActualToolCalls[0].IsError {
		t.Fatalf("precondition: actual calls = %+v", it.ActualToolCalls)
	}
	if it.Result != evals.ResultFailed {
		t.Errorf("iteration result = %s with an isError tool result; want failed", it.Result)
	}
	test.AdvancedConfig = map[string]any{"failOnToolError": false}
	if it, _ := f.runOne(t, test); it.Result != evals.ResultPassed {
		t.Errorf("failOnToolError false: iteration result = %s; want passed", it.Result)
	}
}

// A toolCall step whose tool reports isError reads ok, as the service's
// step rows do: the error fails the iteration, not the step.
func TestToolCallIsErrorFailsIterationNotStep(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	it, steps := f.runOne(t, evals.Test{Title: "tool error", Steps: []evals.Step{
		evals.ToolCallStep("call", "broken", nil),
	}})
	if it.Result != evals.ResultFailed {
		t.Errorf("iteration %s; want failed", it.Result)
	}
	if steps[0].Status != evals.StepOK {
		t.Errorf("toolCall step row %s (%q); want ok", steps[0].Status, steps[0].Reason)
	}
}
