package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/sdktest"
)

// A toolCall step's serverName is resolved as the service resolves it: the
// server's id, or its saved name in any case, even when the run gave no
// serverNames; a name no server of the run has is the iteration's setup
// failure, saying so, and its row reads ok as the service persists it.
func TestToolCallStepServerNameResolves(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	step := func(id, server string) evals.Step {
		st := evals.ToolCallStep(id, "echo", map[string]any{"message": "hi"})
		st.ServerName = server
		return st
	}
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{{Title: "refs", Steps: []evals.Step{
		step("saved name", "demo"), step("other case", " DEMO "), step("id", f.serverID), step("unknown", "nope"),
	}}}})
	f.awaitRun(t, rc.RunID)
	iters, err := sdktest.Collect(f.c.Evals.Runs.AllIterations(t.Context(), f.ws.ProjectID, rc.RunID, nil))
	if err != nil || len(iters) != 1 {
		t.Fatalf("iterations: %v, %v", iters, err)
	}
	steps, err := sdktest.Collect(f.c.Evals.Runs.AllSteps(t.Context(), f.ws.ProjectID, rc.RunID, iters[0].ID, nil))
	if err != nil || len(steps) != 4 {
		t.Fatalf("steps: %+v, %v", steps, err)
	}
	for _, st := range steps[:3] {
		if st.Status != evals.StepOK {
			t.Errorf("step %q: %s (%s), want ok", st.StepID, st.Status, st.Reason)
		}
	}
	if it := iters[0]; it.Status != evals.StatusFailed || it.Error != "no server of the run is named nope" || steps[3].Status != evals.StepOK {
		t.Errorf("iteration %s (%q), unknown server's row %s: want the iteration failed naming the server, the row ok",
			it.Status, it.Error, steps[3].Status)
	}
}

// A toolCall step whose server is not in the run is a setup failure, as on
// the service: the iteration ends with status failed (not a completed
// iteration with a failed result), and the steps after it are skipped.
func TestToolCallUnknownServerIsSetupFailure(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	bad := evals.ToolCallStep("bad", "echo", map[string]any{"message": "hi"})
	bad.ServerName = "nope"
	it, steps := f.runOne(t, evals.Test{Title: "unresolved server", Steps: []evals.Step{
		bad,
		evals.ToolCallStep("after", "add", map[string]any{"a": 1, "b": 2}),
	}})
	if it.Status != evals.StatusFailed || it.Error != "no server of the run is named nope" {
		t.Errorf("iteration status %s (result %s, error %q); want failed, naming the server", it.Status, it.Result, it.Error)
	}
	if steps[1].Status != evals.StepSkipped || len(it.ActualToolCalls) != 0 {
		t.Errorf("later step %s (%q), calls %+v; want skipped and no call made", steps[1].Status, steps[1].Reason, it.ActualToolCalls)
	}
}
