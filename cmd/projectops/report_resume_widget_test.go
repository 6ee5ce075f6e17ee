package main

import (
	"bytes"
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
	noStorageIDServer(t)
	spool := spooledWidget(t, true)
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
	code, out, errOut = runReportCLI(t, "", "report", "resume", "--spool", spooledWidget(t, true), "--json")
	if code != 0 || !strings.Contains(out, `"resent": 2`) || !strings.Contains(out, `"truncated": 1`) {
		t.Errorf("resume --json: exit %d, %q %q", code, out, errOut)
	}
}

// Resume's warning for a widget whose upload stored nothing goes through
// the CLI's logger: on the CLI's stderr with -v, naming the file, and
// nowhere without it (the count is in the output); never to the process's
// default logger, whose raw output would ignore the CLI's stderr, -v and
// --json. Not parallel: it watches the default logger.
func TestReportResumeWarningGoesToTheCLILogger(t *testing.T) {
	reportEnv(t)
	var global bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&global, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	noStorageIDServer(t)
	code, out, errOut := runReportCLI(t, "", "-v", "report", "resume", "--spool", spooledWidget(t, false))
	if code != 0 || !strings.Contains(errOut, "level=WARN") || !strings.Contains(errOut, "stored nothing") || !strings.Contains(errOut, ".widget.html") {
		t.Errorf("resume -v: exit %d, stdout %q, stderr %q; want the warning, naming the file, on the CLI's stderr", code, out, errOut)
	}
	code, out, errOut = runReportCLI(t, "", "report", "resume", "--spool", spooledWidget(t, false))
	if code != 0 || strings.Contains(errOut, "stored nothing") || !strings.Contains(out, "1 without their widget HTML") {
		t.Errorf("resume: exit %d, stdout %q, stderr %q; want the count on stdout and no warning", code, out, errOut)
	}
	if global.Len() != 0 {
		t.Errorf("resume logged to the default logger: %q", global.String())
	}
}

// noStorageIDServer points the CLI at a service that answers every upload
// without a storageId (it stored nothing) and takes everything else.
func noStorageIDServer(t *testing.T) {
	t.Helper()
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
}

// spooledWidget records, through a TBRecorder in a new spool directory, a
// result whose widget HTML is too large for a chunk (spooled in a file
// beside it), after a plain one when plain is set, and returns the
// directory.
func spooledWidget(t *testing.T, plain bool) string {
	t.Helper()
	spool := t.TempDir()
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: spool, Getenv: func(string) string { return "" }})
	if plain {
		rec.Record(t, ingest.Result{CaseTitle: "plain", Passed: true})
	}
	rec.Record(t, ingest.Result{CaseTitle: "renders", Passed: true, WidgetSnapshots: []ingest.WidgetSnapshot{{ToolCallID: "tc",
		ToolName: "show", ServerID: "srv_1", ResourceURI: "ui://w", WidgetHTML: "<html>" + strings.Repeat("widget ", 300_000) + "</html>"}}})
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return spool
}
