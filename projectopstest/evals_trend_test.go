package projectopstest_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/projectops/projectops-go/evals"
)

// A suite's passRateTrend lists its finished runs' pass rates oldest first
// (api-spec.md section 2), latestRun is the newest run, and totals add up
// every run's iterations: a failing run, then a rerun where one of two
// tests passes, reads [0, 0.5], latest 0.5 (1 passed, 1 failed), totals
// 1 passed, 2 failed, 2 runs.
func TestSuitePassRateTrendOldestFirst(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	bad := evals.Test{Title: "bad", Steps: []evals.Step{
		evals.PromptStep("ask", "Use the echo tool with message=x"),
		evals.AssertCalledWith("check", "echo", map[string]any{"message": "y"}),
	}}
	first := f.create(t, evals.RunParams{SuiteName: "trend", Tests: []evals.Test{bad}})
	if run := f.awaitRun(t, first.RunID); run.Result != evals.ResultFailed {
		t.Fatalf("precondition: first run %s %s, want failed", run.Status, run.Result)
	}
	second := f.create(t, evals.RunParams{SuiteID: first.SuiteID, Tests: []evals.Test{bad, echoTest("good", "x")}})
	f.awaitRun(t, second.RunID)
	suites, err := items(f.c.Evals.Suites.List(t.Context(), f.ws.ProjectID, nil))
	if err != nil || len(suites) != 1 {
		t.Fatalf("suites = %+v, %v", suites, err)
	}
	s := suites[0]
	if !cmp.Equal(s.PassRateTrend, []float64{0, 0.5}) {
		t.Errorf("passRateTrend = %v, want [0 0.5] (oldest first)", s.PassRateTrend)
	}
	if lr := s.LatestRun; lr == nil || lr.ID != second.RunID || lr.PassRate == nil || *lr.PassRate != 0.5 ||
		lr.Passed == nil || *lr.Passed != 1 || lr.Failed == nil || *lr.Failed != 1 {
		t.Errorf("latestRun = %+v, want run %s at 0.5 (1 passed, 1 failed)", lr, second.RunID)
		if lr != nil {
			t.Logf("latestRun passRate %v, passed %v, failed %v", ptrVal(lr.PassRate), ptrVal(lr.Passed), ptrVal(lr.Failed))
		}
	}
	if want := (evals.Totals{Passed: 1, Failed: 2, Runs: 2}); s.Totals != want {
		t.Errorf("totals = %+v, want %+v", s.Totals, want)
	}
}
