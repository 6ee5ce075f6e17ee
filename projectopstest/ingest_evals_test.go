package projectopstest_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
)

// ingestedRows are the rows the read-back tests send: tool calls, tokens,
// durations, a failure and the three trace forms the reference accepts.
func ingestedRows() []ingest.Result {
	echo := ingest.ToolCall{ToolName: "echo", Arguments: map[string]any{"message": "hi"}}
	return []ingest.Result{
		{CaseTitle: "echoes", Passed: true, DurationMs: 812.5, Model: "gpt-4o-mini", Provider: "openai",
			ExpectedToolCalls: []ingest.ToolCall{echo}, ActualToolCalls: []ingest.ToolCall{echo},
			Tokens: &ingest.Tokens{Input: 100, Output: 20, Total: 120},
			Trace:  []byte(`{"messages":[{"role":"user","content":"say hi"}]}`)},
		{CaseTitle: "adds", Passed: true, DurationMs: 40, Trace: []byte(`[{"role":"assistant","content":"3"}]`)},
		{CaseTitle: "refunds once", Passed: false, DurationMs: 1500, Error: "refund called twice",
			ExpectedToolCalls: []ingest.ToolCall{{ToolName: "refund"}},
			ActualToolCalls:   []ingest.ToolCall{{ToolName: "refund"}, {ToolName: "refund"}}},
		{CaseTitle: "plain log", Passed: true, Trace: []byte(`"line one\nline two"`)},
		{CaseTitle: "no trace", Passed: true},
	}
}

// checkIngestedReadBack reads runID back through the eval routes and
// compares it with ingestedRows.
func checkIngestedReadBack(t *testing.T, c *projectops.Client, projectID, runID string) {
	t.Helper()
	ctx := t.Context()
	run, err := c.Evals.Runs.Get(ctx, projectID, runID)
	if err != nil {
		t.Fatal(err)
	}
	if run.Source != evals.SourceSDK || run.Status != evals.StatusCompleted || run.Result != evals.ResultFailed ||
		run.CompletedAt == 0 || run.RunNumber != 1 {
		t.Errorf("run = %+v", run)
	}
	if diff := cmp.Diff(&evals.Summary{Total: 5, Passed: 4, Failed: 1, PassRate: 0.8}, run.Summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	var got []evals.Iteration
	for it, err := range c.Evals.Runs.AllIterations(ctx, projectID, runID, &evals.IterationsParams{Limit: 2}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, it)
	}
	// Chunks sent concurrently may arrive in any order: iterations are
	// numbered in arrival order, so match them to rows by title.
	rows := map[string]ingest.Result{}
	for _, r := range ingestedRows() {
		rows[r.CaseTitle] = r
	}
	if len(got) != len(rows) {
		t.Fatalf("%d iterations, want %d", len(got), len(rows))
	}
	byTitle := map[string]evals.Iteration{}
	for i, it := range got {
		want := rows[it.Title]
		byTitle[it.Title] = it
		wantResult := evals.ResultFailed
		if want.Passed {
			wantResult = evals.ResultPassed
		}
		if it.Title != want.CaseTitle || it.IterationNumber != i+1 || it.Status != evals.StatusCompleted ||
			it.Result != wantResult || ptrVal(it.DurationMs) != any(want.DurationMs) || it.Error != want.Error ||
			it.Model != want.Model || it.Provider != want.Provider {
			t.Errorf("iteration %d = %+v, want row %+v", i, it, want)
		}
		if len(it.ActualToolCalls) != len(want.ActualToolCalls) || len(it.ExpectedToolCalls) != len(want.ExpectedToolCalls) {
			t.Errorf("iteration %d tool calls: actual %v expected %v", i, it.ActualToolCalls, it.ExpectedToolCalls)
		}
		steps, err := sdktest.Collect(c.Evals.Runs.AllSteps(ctx, projectID, runID, it.ID, nil))
		if err != nil || len(steps) != 0 {
			t.Errorf("iteration %d steps = %v, %v; want none (nothing authored)", i, steps, err)
		}
	}
	if diff := cmp.Diff([]evals.ToolCall{{ToolName: "echo", Arguments: map[string]any{"message": "hi"}}},
		byTitle["echoes"].ActualToolCalls); diff != "" {
		t.Errorf("actual tool calls (-want +got):\n%s", diff)
	}
	if u := byTitle["echoes"].Usage; u == nil || *u != (evals.Usage{InputTokens: 100, OutputTokens: 20, TotalTokens: 120}) ||
		ptrVal(byTitle["echoes"].TokensUsed) != 120.0 {
		t.Errorf("usage = %+v, tokensUsed %v", u, ptrVal(byTitle["echoes"].TokensUsed))
	}
	for title, want := range map[string]evals.TraceMessage{"echoes": {Role: "user", Content: "say hi"}, "adds": {Role: "assistant", Content: "3"}} {
		tr, err := c.Evals.Runs.Trace(ctx, projectID, runID, byTitle[title].ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]evals.TraceMessage{want}, tr.Messages); diff != "" {
			t.Errorf("trace of %q, messages (-want +got):\n%s", title, diff)
		}
	}
	if tr, err := c.Evals.Runs.Trace(ctx, projectID, runID, byTitle["plain log"].ID); err != nil || string(tr.Raw) != `{"raw":"line one\nline two"}` {
		t.Errorf("string trace = %s, %v", tr.Raw, err)
	}
	if _, err := c.Evals.Runs.Trace(ctx, projectID, runID, byTitle["no trace"].ID); !errors.Is(err, projectops.ErrTraceNotAvailable) {
		t.Errorf("row without trace: err = %v, want TRACE_NOT_AVAILABLE", err)
	}
}

func TestIngestedRunReadsBackThroughEvals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		chunkSize int
	}{{"report", 0}, {"chunked", 2}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := projectopstest.NewTestServer(t, noLimit)
			c, err := srv.NewClient()
			if err != nil {
				t.Fatal(err)
			}
			rep, err := ingest.NewReporter(c.Ingest, ingest.ReporterOptions{ChunkSize: tc.chunkSize, NoSpool: true,
				Run: ingest.RunParams{SuiteName: "agent", ExternalRunID: "ext-" + tc.name}})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range ingestedRows() {
				if err := rep.Record(t.Context(), r); err != nil {
					t.Fatal(err)
				}
			}
			out, err := rep.Close(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			checkIngestedReadBack(t, c, srv.Default().ProjectID, out.Run.RunID)
		})
	}
}

// Start, append and finalize by hand: the run is visible (running, no
// result) while rows arrive, and joins its suite's listing.
func TestIngestedRunThroughStartAppendFinalize(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	ctx, pid := t.Context(), srv.Default().ProjectID
	st, err := c.Ingest.StartRun(ctx, pid, ingest.RunParams{SuiteName: "agent", ExternalRunID: "ext-1",
		PassCriteria: &ingest.PassCriteria{MinimumPassRate: 90}, CI: &ingest.CIMetadata{Provider: "github"}})
	if err != nil {
		t.Fatal(err)
	}
	rows := ingestedRows()
	if _, err := c.Ingest.AppendIterations(ctx, pid, ingest.AppendParams{RunID: st.RunID, Results: rows[:3]}); err != nil {
		t.Fatal(err)
	}
	run, err := c.Evals.Runs.Get(ctx, pid, st.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != evals.StatusRunning || run.Result != "" || run.Source != evals.SourceSDK ||
		*run.Summary != (evals.Summary{Total: 3, Passed: 2, Failed: 1, PassRate: 2.0 / 3}) {
		t.Errorf("running run = %+v %+v", run, run.Summary)
	}
	if _, err := c.Ingest.AppendIterations(ctx, pid, ingest.AppendParams{RunID: st.RunID, Results: rows[3:]}); err != nil {
		t.Fatal(err)
	}
	fin, err := c.Ingest.FinalizeRun(ctx, pid, ingest.FinalizeParams{RunID: st.RunID, ExternalRunID: "ext-1"})
	if err != nil {
		t.Fatal(err)
	}
	// 0.8 < 90%: failed, on both faces of the run.
	if fin.Status != ingest.StatusCompleted || fin.Result != ingest.ResultFailed {
		t.Errorf("finalize = %+v", fin)
	}
	checkIngestedReadBack(t, c, pid, st.RunID)

	suites, err := items(c.Evals.Suites.List(ctx, pid, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(suites) != 1 || suites[0].ID != st.SuiteID || suites[0].LatestRun == nil || suites[0].LatestRun.ID != st.RunID ||
		suites[0].Totals.Runs != 1 || suites[0].Totals.Passed != 4 || suites[0].Totals.Failed != 1 ||
		!cmp.Equal(suites[0].PassRateTrend, []float64{0.8}) {
		t.Errorf("suites = %+v", suites)
	}
	runs, err := items(c.Evals.Suites.ListRuns(ctx, pid, st.SuiteID, nil))
	if err != nil || len(runs) != 1 || runs[0].ID != st.RunID || runs[0].Source != evals.SourceSDK {
		t.Errorf("suite runs = %+v, %v", runs, err)
	}
	if got := srv.IngestedRuns(pid); len(got) != 1 || got[0].Params.CI == nil || got[0].Params.CI.Provider != "github" ||
		got[0].Summary != (ingest.Summary{Total: 5, Passed: 4, Failed: 1, PassRate: 0.8}) {
		t.Errorf("IngestedRuns = %+v", got)
	}
	if its, ok := srv.IngestedIterations(st.RunID); !ok || len(its) != 5 || its[2].Result != ingest.ResultFailed ||
		its[0].Input.Tokens == nil || its[0].Input.Tokens.Total != 120 {
		t.Errorf("IngestedIterations = %+v, %v", its, ok)
	}
}

// Ingested runs are never executed, so they neither count against the
// concurrency cap nor are refused by it; cancelling one through the eval
// routes ends it, and later appends are refused.
func TestIngestedRunsDoNotConsumeTheCap(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	f := newEvalFix(t, holdRuns(release), projectopstest.WithEvalConcurrency(1))
	ctx, pid := t.Context(), f.ws.ProjectID
	first, err := f.c.Ingest.StartRun(ctx, pid, ingest.RunParams{SuiteName: "ci", ExternalRunID: "a"})
	if err != nil {
		t.Fatal(err)
	}
	f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("a", "x")}}) // the one engine run allowed
	if _, err := f.c.Ingest.StartRun(ctx, pid, ingest.RunParams{SuiteName: "ci", ExternalRunID: "b"}); err != nil {
		t.Fatalf("ingest while the cap is full: %v", err)
	}
	_, err = f.c.Evals.Runs.Create(ctx, pid, evals.RunParams{SuiteName: "s2", ServerIDs: []string{f.serverID},
		Tests: []evals.Test{{Title: "t", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "hi")}}}})
	if !errors.Is(err, projectops.ErrConcurrentRunLimit) {
		t.Fatalf("second engine run: err = %v, want CONCURRENT_RUN_LIMIT", err)
	}

	run, err := f.c.Evals.Runs.Cancel(ctx, pid, first.RunID)
	if err != nil || run.Status != evals.StatusCancelled || run.Source != evals.SourceSDK {
		t.Fatalf("cancel ingested run = %+v, %v", run, err)
	}
	_, err = f.c.Ingest.AppendIterations(ctx, pid, ingest.AppendParams{RunID: first.RunID,
		Results: []ingest.Result{{CaseTitle: "late", Passed: true}}})
	if !errors.Is(err, projectops.ErrConflict) {
		t.Errorf("append to a cancelled run: err = %v, want CONFLICT", err)
	}
	fin, err := f.c.Ingest.FinalizeRun(ctx, pid, ingest.FinalizeParams{RunID: first.RunID, ExternalRunID: "a"})
	if err != nil || fin.Status != string(evals.StatusCancelled) || fin.Result != ingest.ResultFailed {
		t.Errorf("finalize a cancelled run = %+v, %v", fin, err)
	}
}

// An ingested iteration is found by its id exactly as listed: "itr_1_01"
// and "itr_1_+1" are unknown (404), not aliases of "itr_1_1".
func TestIngestedIterationIDIsExact(t *testing.T) {
	f := newEvalFix(t)
	tg := inproc(f.srv)
	ctx, pid := t.Context(), f.ws.ProjectID
	st, err := f.c.Ingest.StartRun(ctx, pid, ingest.RunParams{SuiteName: "ci", ExternalRunID: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.c.Ingest.AppendIterations(ctx, pid, ingest.AppendParams{RunID: st.RunID,
		Results: []ingest.Result{{CaseTitle: "one", Passed: true}}}); err != nil {
		t.Fatal(err)
	}
	page, err := f.c.Evals.Runs.ListIterations(ctx, pid, st.RunID, nil)
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("iterations: %v %v", page, err)
	}
	id := page.Items[0].ID
	base := "/projects/" + pid + "/eval-runs/" + st.RunID + "/iterations/"
	if r := tg.call(t, http.MethodGet, base+id+"/steps", f.ws.APIKey, nil); r.status != http.StatusOK {
		t.Fatalf("listed id %q: %d %s", id, r.status, r.body)
	}
	for _, alias := range []string{id[:len(id)-1] + "01", id[:len(id)-1] + "+1"} {
		if r := tg.call(t, http.MethodGet, base+alias+"/steps", f.ws.APIKey, nil); r.status != http.StatusNotFound {
			t.Errorf("steps of unknown iteration %q (listed %q): %d %s, want 404", alias, id, r.status, r.body)
		}
	}
}
