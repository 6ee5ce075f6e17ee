package ingest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/option"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// The one-shot report is stored but its answer is lost (every attempt):
// Resume finds the run complete and leaves it as it is. The report created
// and finalized the run with every result, so sending them again to a
// "-resumed-" run would store each twice.
func TestResumeAfterLostOneShotAnswerStoresOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	lose := roundTrip(func(req *http.Request) (*http.Response, error) {
		resp, err := f.srv.Transport().RoundTrip(req)
		if err == nil && strings.HasSuffix(req.URL.Path, "/eval-ingest/report") {
			resp.Body.Close()
			return nil, io.ErrUnexpectedEOF // applied, but the answer never arrived
		}
		return resp, err
	})
	c := f.client(t, option.WithTransport(lose), option.WithMaxRetries(0))
	r, dir := newReporter(t, c, nil)
	rs := results("lost", 7, 3)
	record(t, r, rs)
	if out, err := r.Close(t.Context()); err != nil || out.Err == nil || out.SpoolPath == "" {
		t.Fatalf("Close = %+v, %v: want a spooled failure", out, err)
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err != nil || len(res) != 1 || res[0].Run == nil || res[0].Resent != 0 || res[0].CompletedRunID != "" {
		t.Fatalf("Resume = %+v, %v", res, err)
	}
	runs := f.srv.IngestedRuns("")
	if len(runs) != 1 {
		t.Fatalf("%d runs, want the reported one only: %+v", len(runs), runs)
	}
	wantRows(t, f.srv, runs[0].ID, rs)
	if files := spoolFiles(t, dir); len(files) != 0 {
		t.Errorf("spool kept after resume: %v", files)
	}
}

// A one-shot report the service refused stored nothing: when another
// reporter then completes the run under the same id (even with as many
// results), Resume still delivers the spool, to a run of its own.
func TestResumeAfterRefusedOneShotIntoACompleteRun(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.srv.SetFault(routeReport, projectopstest.Fault{Status: 403, Times: 1})
	r, dir := newReporter(t, f.c, nil)
	mine := results("mine", 4, 2)
	record(t, r, mine)
	if out, err := r.Close(t.Context()); err != nil || out.Err == nil {
		t.Fatalf("Close = %+v, %v: want a spooled failure", out, err)
	}
	other, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.Run.ExternalRunID = "ext-" + t.Name() })
	record(t, other, results("other", 4, 2))
	if _, err := other.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err != nil || len(res) != 1 || res[0].Resent != 4 || res[0].CompletedRunID != "ext-"+t.Name() {
		t.Fatalf("Resume = %+v, %v", res, err)
	}
	wantRows(t, f.srv, res[0].Run.RunID, mine)
}

// Unanswered, a one-shot report may or may not have been stored; a
// complete run that holds other counts was not completed by it, and Resume
// delivers the spool to a run of its own.
func TestResumeAfterLostOneShotIntoAnotherCompleteRun(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.srv.SetFault(routeReport, projectopstest.Fault{Status: 503, Times: 1})
	c := f.client(t, option.WithMaxRetries(0))
	r, dir := newReporter(t, c, nil)
	mine := results("mine", 4, 2)
	record(t, r, mine)
	if out, err := r.Close(t.Context()); err != nil || out.Err == nil {
		t.Fatalf("Close = %+v, %v: want a spooled failure", out, err)
	}
	other, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.Run.ExternalRunID = "ext-" + t.Name() })
	record(t, other, results("other", 5, 2))
	if _, err := other.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err != nil || len(res) != 1 || res[0].Resent != 4 || res[0].CompletedRunID != "ext-"+t.Name() {
		t.Fatalf("Resume = %+v, %v", res, err)
	}
	wantRows(t, f.srv, res[0].Run.RunID, mine)
}
