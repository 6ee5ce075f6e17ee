package ingest_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/projectops/projectops-go/option"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// Resume sends spooled results as the reporter encoded them: HTML
// characters are not escaped (6 bytes each), so a result that fit the
// service's body limit when recorded still fits it on resume.
func TestResumeKeepsHTMLUnescaped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.srv.SetFault(routeReport, projectopstest.Fault{Status: 500, Times: 1})
	c := f.client(t, option.WithMaxRetries(0))
	r, dir := newReporter(t, c, func(o *ingest.ReporterOptions) { o.ChunkBytes = ingest.MaxBodyBytes })
	res := ingest.Result{CaseTitle: "<html> & friends", Error: strings.Repeat("<a>&", 60_000)} // 240 KB, 1.44 MB escaped
	record(t, r, []ingest.Result{res})
	if out, err := r.Close(t.Context()); err != nil || out.Err == nil {
		t.Fatalf("Close = %+v, %v: want a spooled failure", out, err)
	}
	got, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err != nil || len(got) != 1 || got[0].Run == nil {
		t.Fatalf("Resume = %+v, %v", got, err)
	}
	iters, _ := f.srv.IngestedIterations(got[0].Run.RunID)
	if len(iters) != 1 || iters[0].Input.Error != res.Error || iters[0].Input.CaseTitle != res.CaseTitle {
		t.Fatalf("rows: %d", len(iters))
	}
}

// A spooled result whose widget HTML waited beside the spool is sent, with
// its blob id, still without HTML escaping.
func TestResumeWidgetResultKeepsHTMLUnescaped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	dir := t.TempDir()
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: dir, Suite: "widgets", Getenv: func(string) string { return "" }})
	rec.Record(t, ingest.Result{CaseTitle: "renders", Passed: true, Error: "<b>&amp;</b>",
		WidgetSnapshots: []ingest.WidgetSnapshot{{ToolCallID: "tc", ToolName: "show", ServerID: "srv_1", ResourceURI: "ui://w",
			WidgetHTML: strings.Repeat("widget ", 300_000)}}}) // over a chunk: kept in a file beside the spool
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var appended []string
	c := f.client(t, option.WithTransport(roundTrip(func(req *http.Request) (*http.Response, error) {
		if strings.HasSuffix(req.URL.Path, "/runs/iterations") {
			b, err := io.ReadAll(req.Body)
			if err != nil {
				return nil, err
			}
			mu.Lock()
			appended = append(appended, string(b))
			mu.Unlock()
			req.Body = io.NopCloser(bytes.NewReader(b))
		}
		return f.srv.Transport().RoundTrip(req)
	})))
	if res, err := ingest.Resume(t.Context(), c.Ingest, dir); err != nil || len(res) != 1 {
		t.Fatalf("Resume = %+v, %v", res, err)
	}
	if len(appended) != 1 || !strings.Contains(appended[0], `"<b>&amp;</b>"`) || !strings.Contains(appended[0], "widgetHtmlBlobId") {
		t.Errorf("appended bodies: %.300q", appended)
	}
}
