package projectopstest_test

import (
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
		RunParams: ingest.RunParams{SuiteName: "ing", ExternalRunID: "ext-1"},
		Results: []ingest.Result{
			{CaseTitle: "long", Passed: true, DurationMs: 1e13},
			{CaseTitle: "short", Passed: true, DurationMs: 0.0004},
			{CaseTitle: "tokens", Passed: true, Tokens: &ingest.Tokens{Input: 1 << 62, Output: 1 << 62}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	page, err := c.Evals.Runs.ListIterations(t.Context(), ws.ProjectID, res.RunID, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"long": 1e13, "short": 0.0004, "tokens": 0}
	for _, it := range page.Items {
		if it.DurationMs != want[it.Title] {
			t.Errorf("%s: durationMs %v, want %v", it.Title, it.DurationMs, want[it.Title])
		}
		if it.Title == "tokens" && (it.Usage == nil || it.Usage.TotalTokens <= 0 || it.TokensUsed <= 0) {
			t.Errorf("tokens: tokensUsed %v, usage %+v: the total wrapped", it.TokensUsed, it.Usage)
		}
	}
	if len(page.Items) != 3 {
		t.Fatalf("%d iterations", len(page.Items))
	}
}
