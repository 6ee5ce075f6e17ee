package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
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

// A run whose server cannot list its tools never runs to its end on the
// service (its runner throws before any iteration), so the run is failed.
func TestRunWithUnreachableServerFails(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	down, err := f.srv.AddServer(projectopstest.ServerSpec{ProjectID: f.ws.ProjectID, Name: "down",
		TransportType: "http", URL: "http://127.0.0.1:1/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	rc := f.create(t, evals.RunParams{ServerIDs: []string{down}, Tests: []evals.Test{echoTest("echo", "hi")}})
	if run := f.awaitRun(t, rc.RunID); run.Status != evals.StatusFailed || run.Result != evals.ResultFailed {
		t.Errorf("run %s %s; want failed", run.Status, run.Result)
	}
	// What a cancel in the deadline window reads to settle it failed too.
	if !projectopstest.RunThrew(f.srv, rc.RunID) {
		t.Error("the listing failure is not recorded on the run")
	}
}
