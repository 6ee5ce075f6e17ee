package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// A run whose iterations ran to their end completes, as the service's
// runner finalizes it, even when one failed to set up: its pass criteria
// decide the result.
func TestRunWithFailedIterationCompletes(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	bad := evals.ToolCallStep("bad", "echo", map[string]any{"message": "hi"})
	bad.ServerName = "nope"
	rc := f.create(t, evals.RunParams{PassCriteria: &evals.PassCriteria{MinimumPassRate: 50}, Tests: []evals.Test{
		{Title: "unresolved server", Steps: []evals.Step{bad}},
		echoTest("echo", "hi"),
	}})
	run := f.awaitRun(t, rc.RunID)
	if run.Status != evals.StatusCompleted || run.Result != evals.ResultPassed ||
		*run.Summary != (evals.Summary{Total: 2, Passed: 1, Failed: 1, PassRate: 0.5}) {
		t.Errorf("run %s %s, summary %+v; want completed and passed at 50%%", run.Status, run.Result, run.Summary)
	}
}
