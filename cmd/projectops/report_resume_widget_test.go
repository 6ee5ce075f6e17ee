package main

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// A spooled widget whose upload the service answers without a storageId
// (it stored nothing, and will not on a retry) does not hold its run back
// forever: resume delivers the run with that snapshot's HTML dropped, says
// so, and exits 0.
func TestReportResumeUploadWithoutStorageID(t *testing.T) {
	reportEnv(t)
	prev := slog.Default() // Resume warns there; not this test's output
	slog.SetDefault(slog.New(slog.DiscardHandler))
	t.Cleanup(func() { slog.SetDefault(prev) })
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch p := r.URL.Path; {
		case strings.HasSuffix(p, "/artifacts/upload-url"):
			_, _ = io.WriteString(w, `{"ok":true,"uploadUrl":"`+srv.URL+`/upload/1"}`)
		case strings.HasPrefix(p, "/upload/"):
			_, _ = io.WriteString(w, `{}`)
		case strings.HasSuffix(p, "/runs/start"):
			_, _ = io.WriteString(w, `{"ok":true,"suiteId":"s1","runId":"r1","status":"running","result":"pending"}`)
		case strings.HasSuffix(p, "/runs/iterations"):
			_, _ = io.WriteString(w, `{"ok":true,"inserted":2,"skipped":0,"total":2}`)
		default:
			_, _ = io.WriteString(w, `{"ok":true,"suiteId":"s1","runId":"r1","status":"completed","result":"passed","summary":{"total":2,"passed":2,"failed":0,"passRate":1}}`)
		}
	}))
	t.Cleanup(srv.Close)
	t.Setenv("PROJECTOPS_BASE_URL", srv.URL+"/api/v1")
	spooled := func() string {
		spool := t.TempDir()
		rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: spool, Getenv: func(string) string { return "" }})
		rec.Record(t, ingest.Result{CaseTitle: "plain", Passed: true})
		rec.Record(t, ingest.Result{CaseTitle: "renders", Passed: true, WidgetSnapshots: []ingest.WidgetSnapshot{{ToolCallID: "tc",
			ToolName: "show", ServerID: "srv_1", ResourceURI: "ui://w", WidgetHTML: "<html>" + strings.Repeat("widget ", 300_000) + "</html>"}}})
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		return spool
	}
	spool := spooled()
	code, out, errOut := runReportCLI(t, "", "report", "resume", "--spool", spool)
	if code != 0 || !strings.Contains(out, "2 results re-sent (1 without their widget HTML: its upload stored nothing)") {
		t.Errorf("resume: exit %d, %q %q", code, out, errOut)
	}
	code, out, errOut = runReportCLI(t, "", "report", "resume", "--spool", spool, "--json")
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Errorf("second resume: exit %d, %q %q; want nothing left", code, out, errOut)
	}
	if left, _ := filepath.Glob(filepath.Join(spool, "*.widget.html")); len(left) != 0 {
		t.Errorf("widget files left: %v", left)
	}
	code, out, errOut = runReportCLI(t, "", "report", "resume", "--spool", spooled(), "--json")
	if code != 0 || !strings.Contains(out, `"resent": 2`) || !strings.Contains(out, `"truncated": 1`) {
		t.Errorf("resume --json: exit %d, %q %q", code, out, errOut)
	}
}
