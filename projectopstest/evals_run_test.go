package projectopstest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/sdktest"
)

func TestEvalSuiteAuthoringRunsNothing(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	ctx := t.Context()
	created, err := f.c.Evals.Suites.Create(ctx, f.ws.ProjectID, evals.CreateSuiteParams{
		Name: "smoke", ServerIDs: []string{f.serverID}, Model: "openai/gpt-4o-mini",
		Tests: []evals.Test{echoTest("echo works", "hi"), echoTest("echo twice", "ho")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if created.SuiteID == "" || created.Name != "smoke" || len(created.CaseUpsert.Committed) != 2 ||
		len(created.Servers) != 1 || created.Servers[0] != (evals.ServerRef{ID: f.serverID}) {
		t.Fatalf("created = %+v; a suite's servers are named only by the serverNames given, as the service names them", created)
	}
	g := newEvalFix(t) // a world of its own: f's suites are counted below
	named, err := g.c.Evals.Suites.Create(ctx, g.ws.ProjectID, evals.CreateSuiteParams{
		Name: "named", ServerIDs: []string{g.serverID}, ServerNames: []string{"Demo server"}, Model: "openai/gpt-4o-mini",
		Tests: []evals.Test{echoTest("echo works", "hi")},
	})
	if err != nil || len(named.Servers) != 1 || named.Servers[0] != (evals.ServerRef{ID: g.serverID, Name: "Demo server"}) {
		t.Fatalf("named = %+v, %v", named, err)
	}
	suites, err := items(f.c.Evals.Suites.List(ctx, f.ws.ProjectID, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(suites) != 1 || suites[0].ID != created.SuiteID || suites[0].LatestRun != nil ||
		suites[0].Totals != (evals.Totals{}) || len(suites[0].PassRateTrend) != 0 {
		t.Fatalf("suites = %+v", suites)
	}
	runs, err := items(f.c.Evals.Suites.ListRuns(ctx, f.ws.ProjectID, created.SuiteID, nil))
	if err != nil || len(runs) != 0 {
		t.Fatalf("runs = %v, %v; nothing should have run", runs, err)
	}
}

func TestEvalRunExecutesAgainstMCPServer(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	ctx := t.Context()
	created, err := f.c.Evals.Suites.Create(ctx, f.ws.ProjectID, evals.CreateSuiteParams{
		Name: "smoke", ServerIDs: []string{f.serverID}, Model: "openai/gpt-4o-mini",
		Tests: []evals.Test{
			echoTest("echo works", "hi"),
			{Title: "sum", Runs: 2, Steps: []evals.Step{
				evals.ToolCallStep("call", "add", map[string]any{"a": 2, "b": 3}),
				evals.AssertCalledWith("check", "add", map[string]any{"a": 2.0}),
			}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	rc, err := f.c.Evals.Runs.Create(ctx, f.ws.ProjectID, evals.RunParams{SuiteID: created.SuiteID})
	if err != nil {
		t.Fatal(err)
	}
	if rc.SuiteID != created.SuiteID || len(rc.Servers) != 1 || rc.Servers[0].Name != "demo" || rc.Status.Terminal() {
		t.Fatalf("created = %+v", rc)
	}
	run := f.awaitRun(t, rc.RunID)
	if run.Status != evals.StatusCompleted || run.Result != evals.ResultPassed || run.Source != evals.SourceAPI ||
		run.Summary == nil || *run.Summary != (evals.Summary{Total: 3, Passed: 3, PassRate: 1}) ||
		run.CompletedAt.IsZero() || run.RunNumber != 1 {
		t.Fatalf("run = %+v (summary %+v)", run, run.Summary)
	}
	iters, err := sdktest.Collect(f.c.Evals.Runs.AllIterations(ctx, f.ws.ProjectID, rc.RunID, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(iters) != 3 {
		t.Fatalf("%d iterations, want 3", len(iters))
	}
	first := iters[0]
	wantCalls := []evals.ToolCall{{ToolName: "echo", Arguments: map[string]any{"message": "hi"}, ServerID: f.serverID}}
	if diff := cmp.Diff(wantCalls, first.ActualToolCalls); diff != "" {
		t.Errorf("actual tool calls (-want +got):\n%s", diff)
	}
	if first.Status != evals.StatusCompleted || first.Result != evals.ResultPassed || first.Model != "openai/gpt-4o-mini" ||
		first.Provider != "openai" || first.Usage == nil || first.Usage.TotalTokens == 0 || first.TokensUsed == nil || *first.TokensUsed == 0 ||
		first.TestCaseID == "" || len(first.ExpectedToolCalls) != 1 {
		t.Errorf("iteration = %+v", first)
	}
	steps, err := sdktest.Collect(f.c.Evals.Runs.AllSteps(ctx, f.ws.ProjectID, rc.RunID, first.ID, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 2 || steps[0].StepID != "ask" || steps[0].Status != evals.StepOK || steps[0].Evidence == nil ||
		steps[1].StepIndex != 1 || steps[1].Kind != evals.KindAssert || steps[1].Status != evals.StepOK {
		t.Errorf("steps = %+v", steps)
	}
	tr, err := f.c.Evals.Runs.Trace(ctx, f.ws.ProjectID, rc.RunID, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	roles := []string{}
	for _, m := range tr.Messages {
		roles = append(roles, m.Role)
	}
	if got := strings.Join(roles, ","); got != "user,assistant,tool,assistant" {
		t.Errorf("trace roles = %s", got)
	}
	if tr.Messages[2].Content != "Echo: hi" || len(tr.Prompts) != 1 || !tr.Prompts[0].Passed ||
		len(tr.Prompts[0].ExpectedToolCalls) != 1 || len(tr.Spans) == 0 || len(tr.Raw) == 0 {
		t.Errorf("trace = %+v", tr)
	}
	if iters[1].ActualToolCalls[0].ToolName != "add" || iters[2].Title != "sum" {
		t.Errorf("sum iterations = %+v", iters[1:])
	}

	suites, err := items(f.c.Evals.Suites.List(ctx, f.ws.ProjectID, nil))
	if err != nil {
		t.Fatal(err)
	}
	s := suites[0]
	if s.LatestRun == nil || s.LatestRun.ID != rc.RunID || s.LatestRun.Status != evals.StatusCompleted ||
		s.LatestRun.Passed == nil || *s.LatestRun.Passed != 3 || s.LatestRun.PassRate == nil || *s.LatestRun.PassRate != 1 || s.Totals != (evals.Totals{Passed: 3, Runs: 1}) ||
		!cmp.Equal(s.PassRateTrend, []float64{1}) {
		t.Errorf("suite = %+v latest %+v", s, s.LatestRun)
	}
}

func TestEvalRunVerdicts(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	ctx := t.Context()
	rc := f.create(t, evals.RunParams{PassCriteria: &evals.PassCriteria{MinimumPassRate: 50}, Tests: []evals.Test{
		{Title: "wrong args", Steps: []evals.Step{
			evals.PromptStep("ask", "Use echo with message=ho"),
			evals.AssertCalledWith("check", "echo", map[string]any{"message": "hi"}),
		}},
		{Title: "negative", IsNegativeTest: true, Steps: []evals.Step{evals.PromptStep("ask", "Say hello, no tools")}},
		{Title: "tool error", Steps: []evals.Step{evals.ToolCallStep("call", "broken", nil)}},
		{Title: "interact", Steps: []evals.Step{evals.InteractStep("click", map[string]any{"type": "click"})}},
	}})
	run := f.awaitRun(t, rc.RunID)
	// 2 of 4 pass (negative, interact) = 50%: the run passes its criteria.
	if run.Status != evals.StatusCompleted || run.Result != evals.ResultPassed ||
		*run.Summary != (evals.Summary{Total: 4, Passed: 2, Failed: 2, PassRate: 0.5}) {
		t.Fatalf("run = %+v summary %+v", run, run.Summary)
	}
	iters, err := sdktest.Collect(f.c.Evals.Runs.AllIterations(ctx, f.ws.ProjectID, rc.RunID, nil))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		result evals.Result
		status evals.StepStatus
		reason string
	}{
		{evals.ResultFailed, evals.StepFail, `echo was not called with {"message":"hi"} (partial matching); calls: [echo {"message":"ho"}]`},
		{evals.ResultPassed, evals.StepOK, ""},
		{evals.ResultFailed, evals.StepOK, ""}, // the tool's error fails the iteration, not its step
		{evals.ResultPassed, evals.StepSkipped, "no interact handler is configured"},
	}
	for i, it := range iters {
		steps, err := sdktest.Collect(f.c.Evals.Runs.AllSteps(ctx, f.ws.ProjectID, rc.RunID, it.ID, nil))
		if err != nil {
			t.Fatal(err)
		}
		last := steps[len(steps)-1]
		if it.Result != want[i].result || last.Status != want[i].status || last.Reason != want[i].reason {
			t.Errorf("%s: result %s, last step %+v; want %+v", it.Title, it.Result, last, want[i])
		}
	}
	tr, err := f.c.Evals.Runs.Trace(ctx, f.ws.ProjectID, rc.RunID, iters[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if p := tr.Prompts[0]; p.Passed || len(p.Missing) != 1 || len(p.Unexpected) != 1 {
		t.Errorf("analysis = %+v", p)
	}
}

func TestEvalRunIterationsPaging(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	ctx := t.Context()
	rc := f.create(t, evals.RunParams{IterationOverride: 5, Tests: []evals.Test{echoTest("echo", "x")}})
	f.awaitRun(t, rc.RunID)
	p1, err := f.c.Evals.Runs.ListIterations(ctx, f.ws.ProjectID, rc.RunID, &evals.IterationsParams{Limit: 2})
	if err != nil || len(p1.Items) != 2 || p1.NextCursor == "" {
		t.Fatalf("page 1 = %+v, %v", p1, err)
	}
	all, err := sdktest.Collect(f.c.Evals.Runs.AllIterations(ctx, f.ws.ProjectID, rc.RunID, &evals.IterationsParams{Limit: 2}))
	if err != nil || len(all) != 5 || all[4].IterationNumber != 5 {
		t.Fatalf("all = %d items, %v", len(all), err)
	}
	_, err = f.c.Evals.Runs.ListIterations(ctx, f.ws.ProjectID, rc.RunID, &evals.IterationsParams{Limit: 201})
	sdktest.WantField(t, err, "limit", false)
	inproc(f.srv).call(t, http.MethodGet, "/projects/"+f.ws.ProjectID+"/eval-runs/"+rc.RunID+"/iterations?cursor=bogus",
		f.ws.APIKey, nil).wantField(t, "cursor")
	// A limit the service cannot use is clamped, never refused, as its
	// route reads it: 0 or none a number is the default (50), the rest
	// brought into 1–200.
	for q, want := range map[string]int{"limit=0": 5, "limit=201": 5, "limit=x": 5, "limit=-5": 1, "limit=2.9": 2} {
		var page struct {
			Items      []map[string]any `json:"items"`
			NextCursor string           `json:"nextCursor"`
		}
		inproc(f.srv).call(t, http.MethodGet, "/projects/"+f.ws.ProjectID+"/eval-runs/"+rc.RunID+"/iterations?"+q,
			f.ws.APIKey, nil).decode(t, &page)
		if len(page.Items) != want {
			t.Errorf("%s: %d items, want %d", q, len(page.Items), want)
		}
	}
}

// A run given its serverIds names no server (the SDK sends no names); a
// rerun of a suite's saved selection names them from the saved servers.
func TestRunServersNamedOnlyWhenSaved(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	rc := f.create(t, evals.RunParams{SuiteName: "explicit", ServerIDs: []string{f.serverID}, Tests: []evals.Test{echoTest("echo", "x")}})
	if len(rc.Servers) != 1 || rc.Servers[0] != (evals.ServerRef{ID: f.serverID}) {
		t.Errorf("explicit servers = %+v, want [{ID:%s}]", rc.Servers, f.serverID)
	}
	f.awaitRun(t, rc.RunID)
	re := f.create(t, evals.RunParams{SuiteID: rc.SuiteID})
	if len(re.Servers) != 1 || re.Servers[0] != (evals.ServerRef{ID: f.serverID, Name: "demo"}) {
		t.Errorf("rerun servers = %+v, want the saved server's name", re.Servers)
	}
}

// A suite whose newest run is still going with no verdict yet lists that
// run's passRate, passed and failed as null (nil), as the service does,
// not as a 0% run, and keeps it out of passRateTrend; once the run
// finishes they are its counts and the trend has its rate.
func TestSuiteListsRunningRunWithoutVerdictAsNull(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	blk := evals.Test{Title: "b", Steps: []evals.Step{evals.ToolCallStep("one", "block", map[string]any{"tag": "a"})}}
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{blk}})
	f.awaitBlocked(t)
	unblocked := false
	defer func() {
		if !unblocked {
			close(f.unblock)
		}
	}()
	latest := func() evals.Suite {
		t.Helper()
		suites, err := items(f.c.Evals.Suites.List(t.Context(), f.ws.ProjectID, nil))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range suites {
			if s.LatestRun != nil && s.LatestRun.ID == rc.RunID {
				return s
			}
		}
		t.Fatalf("run %s is not the latest of any suite: %+v", rc.RunID, suites)
		return evals.Suite{}
	}
	s := latest()
	if lr := s.LatestRun; lr.Status.Terminal() || lr.PassRate != nil || lr.Passed != nil || lr.Failed != nil {
		t.Errorf("running run with no verdict: status %s passRate=%v passed=%v failed=%v; want null (nil)",
			lr.Status, ptrVal(lr.PassRate), ptrVal(lr.Passed), ptrVal(lr.Failed))
	}
	if len(s.PassRateTrend) != 0 || s.Totals != (evals.Totals{Runs: 1}) {
		t.Errorf("trend %v, totals %+v; a running run adds no rate", s.PassRateTrend, s.Totals)
	}

	close(f.unblock)
	unblocked = true
	f.awaitRun(t, rc.RunID)
	s = latest()
	if lr := s.LatestRun; !lr.Status.Terminal() || lr.PassRate == nil || lr.Passed == nil || lr.Failed == nil ||
		*lr.Passed+*lr.Failed != 1 || len(s.PassRateTrend) != 1 || s.PassRateTrend[0] != *lr.PassRate {
		t.Errorf("finished run: %+v (passRate=%v passed=%v failed=%v), trend %v",
			lr, ptrVal(lr.PassRate), ptrVal(lr.Passed), ptrVal(lr.Failed), s.PassRateTrend)
	}
}

func ptrVal[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
