package ingest_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// A second reporter under an external run id whose run is complete leaves
// that run as it is (what makes a retried step safe), and says so: its
// results count as not sent, the Outcome is Reused, and a warning is
// logged.
func TestReporterReusedCompleteRunIsNotReportedAsSent(t *testing.T) {
	t.Parallel()
	f := setup(t)
	first, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.ChunkSize = 2 })
	record(t, first, results("first", 4, 0))
	if out, err := first.Close(t.Context()); err != nil || out.Reused || out.Sent != 4 {
		t.Fatalf("first Close = %+v, %v", out, err)
	}
	var logged bytes.Buffer
	second, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) {
		o.ChunkSize = 2
		o.Logger = slog.New(slog.NewTextHandler(&logged, nil))
	})
	record(t, second, results("second", 5, 1))
	out, err := second.Close(t.Context())
	if err != nil || out.Err != nil || !out.Reused || out.Sent != 0 || out.Recorded != 5 || out.Run == nil || out.Run.Summary.Total != 4 {
		t.Fatalf("second Close = %+v, %v", out, err)
	}
	if !strings.Contains(logged.String(), "already complete") {
		t.Errorf("no warning: %s", logged.String())
	}
	if runs := f.srv.IngestedRuns(""); len(runs) != 1 || runs[0].Summary.Total != 4 {
		t.Errorf("runs = %+v", runs)
	}
}
