package ingest_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// A run whose results fit one chunk but whose report body, the run's own
// fields included, would not fit it goes the chunked way: the one-shot
// body would exceed the service's 1 MiB limit and be refused.
func TestReporterOneShotOnlyWhenTheBodyFits(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) {
		o.ChunkBytes = ingest.MaxBodyBytes
		o.Run.Notes = strings.Repeat("n", 100_000)
		o.Strict = true
	})
	rs := make([]ingest.Result, 5) // about 1 MB of results: one chunk
	for i := range rs {
		rs[i] = ingest.Result{CaseTitle: "big" + strconv.Itoa(i), Passed: true, Error: strings.Repeat("x", 190_000)}
	}
	record(t, r, rs)
	out, err := r.Close(t.Context())
	if err != nil || out.Run == nil || out.Run.Status != ingest.StatusCompleted || out.Sent != 5 || out.Chunks != 1 {
		t.Fatalf("Close = %+v, %v", out, err)
	}
	if n := len(routeStatuses(f.srv, routeReport)); n != 0 {
		t.Errorf("%d report calls, want the chunked flow", n)
	}
	wantRows(t, f.srv, out.Run.RunID, rs)
}
