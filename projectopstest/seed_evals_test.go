package projectopstest_test

import (
	"testing"
	"time"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// A seeded suite with tests is rerun by id like a suite authored through
// the API: the suite's model, tests and pass criteria apply.
func TestSeededSuiteWithTestsRuns(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithSeed(projectopstest.DemoSeed()))
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	wait := func(suiteID string, iters int) *evals.Run {
		t.Helper()
		rc, err := c.Evals.Runs.Create(ctx, "prj_demo", evals.RunParams{SuiteID: suiteID})
		if err != nil {
			t.Fatal(err)
		}
		run, err := c.Evals.Runs.Wait(ctx, "prj_demo", rc.RunID, evals.WithPollInterval(time.Millisecond, 5*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for it, err := range c.Evals.Runs.AllIterations(ctx, "prj_demo", rc.RunID, nil) {
			if err != nil {
				t.Fatal(err)
			}
			if it.Model != "openai/gpt-4o-mini" || it.Status != evals.StatusCompleted {
				t.Errorf("iteration %+v", it)
			}
			n++
		}
		if n != iters {
			t.Errorf("%d iterations, want %d", n, iters)
		}
		return run
	}
	if run := wait("evs_smoke", 3); !run.Passed() || run.Summary.Passed != 3 {
		t.Errorf("demo suite run = %+v %+v", run, run.Summary)
	}

	// Added in Go: half the tests fail, the pass criteria accept it, and
	// the caller's maps are not shared with the stored tests.
	want := map[string]any{"message": "hello"}
	id, err := srv.AddEvalSuite(projectopstest.EvalSuiteSpec{ProjectID: "prj_demo", Name: "half", ServerIDs: []string{"srv_demo"},
		Model: "openai/gpt-4o-mini", PassCriteria: &evals.PassCriteria{MinimumPassRate: 50}, Tests: []evals.Test{
			{Title: "ok", Steps: []evals.Step{evals.ToolCallStep("c", "echo", map[string]any{"message": "hello"}),
				evals.AssertCalledWith("a", "echo", want)}},
			{Title: "wrong", Steps: []evals.Step{evals.ToolCallStep("c", "echo", map[string]any{"message": "hello"}),
				evals.AssertCalledWith("a", "echo", map[string]any{"message": "other"})}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	want["message"] = "changed after Add" // would fail "ok" if the map were shared
	if run := wait(id, 2); !run.Passed() || run.Summary.Passed != 1 || run.Summary.Failed != 1 {
		t.Errorf("suite with pass criteria = %+v %+v", run, run.Summary)
	}
}

// A seeded suite's passCriteria without minimumPassRate sets no threshold
// (the service's 100), as the suite routes read it; it decoded as 0, which
// let every run of the suite pass.
func TestSeedPassCriteriaWithoutRate(t *testing.T) {
	seed, err := projectopstest.ParseSeed([]byte(`{"evalSuites":[
		{"projectId":"prj_1","name":"a","passCriteria":{}},
		{"projectId":"prj_1","name":"b","passCriteria":{"minimumPassRate":80}},
		{"projectId":"prj_1","name":"c"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got := []*evals.PassCriteria{seed.EvalSuites[0].PassCriteria, seed.EvalSuites[1].PassCriteria, seed.EvalSuites[2].PassCriteria}
	if got[0] != nil || got[1] == nil || got[1].MinimumPassRate != 80 || got[2] != nil {
		t.Errorf("passCriteria = %+v %+v %+v", got[0], got[1], got[2])
	}
}
