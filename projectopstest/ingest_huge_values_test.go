package projectopstest_test

import (
	"math"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// An ingested row's durationMs reads back as sent (not rounded to a
// microsecond, not wrapped past 292 years), and a token total too large
// for an int saturates instead of wrapping negative.
func TestIngestedDurationAndTokensAsSent(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	c := must[*projectops.Client](t)(srv.NewClient())
	res, err := c.Ingest.Report(t.Context(), ws.ProjectID, ingest.ReportParams{
		RunParams: ingest.RunParams{SuiteName: "ing", ExternalRunID: "ext-1", ExpectedIterations: -1},
		Results: []ingest.Result{
			{CaseTitle: "long", Passed: true, DurationMs: 1e13},
			{CaseTitle: "short", Passed: true, DurationMs: 0.0004},
			{CaseTitle: "negative duration", Passed: true, DurationMs: -1}, // the reference's number has no minimum
			{CaseTitle: "tokens", Passed: true, Tokens: &ingest.Tokens{Input: 1 << 62, Output: 1 << 62}},
			{CaseTitle: "negative", Passed: true, Tokens: &ingest.Tokens{Input: 5, Output: -3}},
			{CaseTitle: "very negative", Passed: true, Tokens: &ingest.Tokens{Input: -1 << 62, Output: -1 << 62}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	page, err := c.Evals.Runs.ListIterations(t.Context(), ws.ProjectID, res.RunID, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"long": 1e13, "short": 0.0004, "negative duration": -1}
	for _, it := range page.Items {
		if ptrVal(it.DurationMs) != any(want[it.Title]) {
			t.Errorf("%s: durationMs %v, want %v", it.Title, ptrVal(it.DurationMs), want[it.Title])
		}
		wantTotal := map[string]int{"tokens": math.MaxInt, "negative": 2, "very negative": math.MinInt}
		if w, ok := wantTotal[it.Title]; ok && (it.Usage == nil || it.Usage.TotalTokens != w) {
			t.Errorf("%s: tokensUsed %v, usage %+v; want total %d", it.Title, ptrVal(it.TokensUsed), it.Usage, w)
		}
	}
	if len(page.Items) != 6 {
		t.Fatalf("%d iterations", len(page.Items))
	}
}
