package ingest_test

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// loseFirstAnswer lets the first request to a path ending in suffix reach
// the server, then drops its answer (a reset after the server stored the
// batch): the client sees a network error and retries.
type loseFirstAnswer struct {
	next   http.RoundTripper
	suffix string
	mu     sync.Mutex
	lost   bool
}

func (l *loseFirstAnswer) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := l.next.RoundTrip(r)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err == nil && !l.lost && strings.HasSuffix(r.URL.Path, l.suffix) {
		l.lost = true
		resp.Body.Close()
		return nil, errors.New("read tcp 127.0.0.1:1234: connection reset by peer")
	}
	return resp, err
}

// A retried AppendIterations stores its results once even when they carry
// no ExternalIterationID (they were stored twice, changing the verdict),
// and the caller's results are left as they were.
func TestAppendRetryWithoutIterationIDs(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := t.Context()
	st, err := f.c.Ingest.StartRun(ctx, f.ws.ProjectID, ingest.RunParams{SuiteName: "s", ExternalRunID: "dup", ExpectedIterations: 3})
	if err != nil {
		t.Fatal(err)
	}
	lossy := f.client(t, option.WithTransport(&loseFirstAnswer{next: f.srv.Transport(), suffix: "/eval-ingest/runs/iterations"}))
	rs := []ingest.Result{{CaseTitle: "a", Passed: true}, {CaseTitle: "b", Passed: true}}
	a, err := lossy.Ingest.AppendIterations(ctx, f.ws.ProjectID, ingest.AppendParams{RunID: st.RunID, Results: rs})
	if err != nil {
		t.Fatal(err)
	}
	fin, err := f.c.Ingest.FinalizeRun(ctx, f.ws.ProjectID, ingest.FinalizeParams{RunID: st.RunID, ExternalRunID: "dup"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Total != 2 || fin.Summary.Total != 2 || fin.Status != ingest.StatusFailed {
		t.Errorf("append total %d, run %s with %+v; want 2 stored and failed (3 expected)", a.Total, fin.Status, *fin.Summary)
	}
	if rs[0].ExternalIterationID != "" {
		t.Errorf("the caller's results were changed: %q", rs[0].ExternalIterationID)
	}
}

// Report with nil Results reports an empty run (it sent "results": null,
// which the service refuses).
func TestReportNilResults(t *testing.T) {
	t.Parallel()
	f := setup(t)
	got, err := f.c.Ingest.Report(t.Context(), f.ws.ProjectID, ingest.ReportParams{
		RunParams: ingest.RunParams{SuiteName: "s", ExternalRunID: "nil"}})
	if err != nil || got.Status != ingest.StatusFailed || got.Summary.Total != 0 {
		t.Errorf("Report with nil Results = %+v, %v", got, err)
	}
}

// A report to a run cancelled through the eval routes is 409 CONFLICT, as
// an append is: it answered 200 with status "cancelled" (not a report's
// completed|failed) and dropped the results.
func TestReportToCancelledRun(t *testing.T) {
	t.Parallel()
	f := setup(t, projectopstest.WithContractCheck(t))
	ctx := t.Context()
	p := ingest.ReportParams{RunParams: ingest.RunParams{SuiteName: "s", ExternalRunID: "cancelled"}, Results: results("a", 2, 0)}
	st, err := f.c.Ingest.StartRun(ctx, f.ws.ProjectID, p.RunParams)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.c.Evals.Runs.Cancel(ctx, f.ws.ProjectID, st.RunID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.c.Ingest.Report(ctx, f.ws.ProjectID, p); !errors.Is(err, projectops.ErrConflict) {
		t.Errorf("Report to a cancelled run: %v, want ErrConflict", err)
	}
}
