package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/sdktest"
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

// A negative test passes exactly when no tool is called, as the service's
// matcher decides it: a toolCalledWith assertion naming the tool it must
// not call does not fail it, and is reported as not evaluated.
func TestNegativeTestIgnoresToolAssertions(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{
		{Title: "quiet", IsNegativeTest: true, Steps: []evals.Step{
			evals.PromptStep("ask", "Just say hello, call nothing"),
			evals.AssertCalledWith("not-echo", "echo", nil),
		}},
		{Title: "noisy", IsNegativeTest: true, Steps: []evals.Step{
			evals.PromptStep("ask", "Use echo with message=hi"),
			evals.AssertCalledWith("not-echo", "echo", nil),
		}},
	}})
	f.awaitRun(t, rc.RunID)
	iters, err := sdktest.Collect(f.c.Evals.Runs.AllIterations(t.Context(), f.ws.ProjectID, rc.RunID, nil))
	if err != nil || len(iters) != 2 {
		t.Fatalf("iterations = %+v, %v", iters, err)
	}
	for _, it := range iters {
		want := evals.ResultPassed
		if it.Title == "noisy" {
			want = evals.ResultFailed
		}
		steps, err := sdktest.Collect(f.c.Evals.Runs.AllSteps(t.Context(), f.ws.ProjectID, rc.RunID, it.ID, nil))
		if err != nil {
			t.Fatal(err)
		}
		last := steps[len(steps)-1]
		if it.Result != want || last.Status != evals.StepSkipped {
			t.Errorf("%s: result %s (calls %v), assertion step %+v; want %s and the assertion skipped",
				it.Title, it.Result, it.ActualToolCalls, last, want)
		}
	}
}
