package ingest_test

// How Resume delivers the widget HTML a TBRecorder spooled beside its
// results (too large for a chunk) when its upload fails.

import (
	"bytes"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// spoolWidgets records, through a TBRecorder in dir, a plain result and
// one whose n snapshots each hold widget HTML too large for a chunk (so
// each waits in a widget file of its own), and returns the widget files.
func spoolWidgets(t *testing.T, dir string, n int) []string {
	t.Helper()
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: dir, Suite: "widgets", Getenv: func(string) string { return "" }})
	rec.Record(t, ingest.Result{CaseTitle: "plain", Passed: true})
	var snaps []ingest.WidgetSnapshot
	for i := range n {
		snaps = append(snaps, ingest.WidgetSnapshot{ToolCallID: "tc" + string(rune('a'+i)), ToolName: "show", ServerID: "srv_1",
			ResourceURI: "ui://w", WidgetHTML: "<html>" + strings.Repeat("widget ", 160_000) + "</html>"})
	}
	rec.Record(t, ingest.Result{CaseTitle: "renders", Passed: true, WidgetSnapshots: snaps})
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	w, _ := filepath.Glob(filepath.Join(dir, "*.widget.html"))
	if len(w) != n {
		t.Fatalf("widget files spooled: %v, want %d", w, n)
	}
	return w
}

// countPaths counts the requests whose path has the suffix (or, for
// "/upload/", the prefix).
func countPaths(reqs []wireRequest, part string) int {
	n := 0
	for _, r := range reqs {
		if strings.HasSuffix(r.Path, part) || strings.HasPrefix(r.Path, part) {
			n++
		}
	}
	return n
}

// An upload answered without a storageId stored nothing, and will not on
// any later resume: the snapshot goes with the dropped-HTML marker
// (counted in Truncated, logged as a warning naming the file), and the
// run's results are delivered and the run finalized, rather than every
// Resume failing the same way forever. Not parallel: it reads the
// default logger, which Resume warns to.
func TestResumeUploadWithoutStorageIDDropsTheHTMLAndDelivers(t *testing.T) {
	var logged bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logged, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	svc, reqs := fakeIngest(t, `{}`)
	dir := t.TempDir()
	w := spoolWidgets(t, dir, 1)
	res, err := ingest.Resume(t.Context(), svc, dir)
	if err != nil || len(res) != 1 {
		t.Fatalf("Resume = %+v, %v; want the run delivered", res, err)
	}
	if res[0].Resent != 2 || res[0].Truncated != 1 || countPaths(reqs(), "/runs/finalize") != 1 {
		t.Errorf("resent %d, truncated %d, finalized %d times; want 2, 1, 1",
			res[0].Resent, res[0].Truncated, countPaths(reqs(), "/runs/finalize"))
	}
	for _, r := range reqs() {
		if strings.Contains(r.Body, `"widgetHtmlBlobId"`) {
			t.Errorf("%s sent a widgetHtmlBlobId for a blob never stored: %.200s", r.Path, r.Body)
		}
	}
	snaps := sentSnapshots(t, reqs())
	if len(snaps) != 1 {
		t.Fatalf("snapshots sent: %v", snaps)
	}
	if h, _ := snaps[0]["widgetHtml"].(string); !strings.Contains(h, "widget HTML dropped") || snaps[0]["toolCallId"] != "tca" {
		t.Errorf("snapshot sent: %v; want the dropped-HTML marker and its fields", snaps[0])
	}
	if l := logged.String(); !strings.Contains(l, "level=WARN") || !strings.Contains(l, filepath.Base(w[0])) || !strings.Contains(l, "storageId") {
		t.Errorf("the dropped HTML was not warned of, naming its file: %q", l)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*.widget.html*"))
	sp, _ := filepath.Glob(filepath.Join(dir, "*"+ingest.SpoolExt))
	if len(left) != 0 || len(sp) != 0 {
		t.Errorf("files left after the run was finalized: %v %v", left, sp)
	}
}

// ResumeWithOptions warns through the logger it is given (as a Reporter
// through ReporterOptions.Logger), so a caller such as the CLI keeps the
// warning on its own stderr and format.
func TestResumeWithOptionsWarnsToItsLogger(t *testing.T) {
	t.Parallel()
	svc, _ := fakeIngest(t, `{}`)
	dir := t.TempDir()
	w := spoolWidgets(t, dir, 1)
	var logged bytes.Buffer
	res, err := ingest.ResumeWithOptions(t.Context(), svc, dir, ingest.ResumeOptions{Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	if err != nil || len(res) != 1 || res[0].Truncated != 1 {
		t.Fatalf("ResumeWithOptions = %+v, %v; want the run delivered, one snapshot without its HTML", res, err)
	}
	if l := logged.String(); !strings.Contains(l, "level=WARN") || !strings.Contains(l, filepath.Base(w[0])) {
		t.Errorf("the dropped HTML was not warned of to the given logger, naming its file: %q", l)
	}
}

// Any other failed upload (here a 500) fails the run's resume, which names
// the widget file at stake, and keeps the spool for the next one; that
// next one sends the blob an earlier upload stored without uploading its
// file again, and uploads only the one that failed.
func TestResumeUploadFailureKeepsTheSpoolAndStoredBlobs(t *testing.T) {
	t.Parallel()
	var fixed atomic.Bool
	svc, reqs := fakeIngestUploads(t, func(n int) (int, string) {
		if n == 2 && !fixed.Load() {
			return http.StatusInternalServerError, `{"error":"down"}`
		}
		return http.StatusOK, `{"storageId":"stg_` + string(rune('0'+n)) + `"}`
	})
	dir := t.TempDir()
	w := spoolWidgets(t, dir, 2)
	_, err := ingest.Resume(t.Context(), svc, dir)
	if err == nil {
		t.Fatal("Resume succeeded despite a failed upload")
	}
	// Which file failed depends on neither order nor names: one of the two.
	if msg := err.Error(); !strings.Contains(msg, filepath.Base(w[0])) && !strings.Contains(msg, filepath.Base(w[1])) {
		t.Errorf("the error names no widget file: %q", msg)
	}
	if n := countPaths(reqs(), "/runs/finalize"); n != 0 || len(sentSnapshots(t, reqs())) != 0 {
		t.Errorf("finalized %d times, snapshots sent %v, after a failed upload", n, sentSnapshots(t, reqs()))
	}
	for _, f := range w {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("widget file not kept for the next resume: %v", err)
		}
	}
	fixed.Store(true)
	before := countPaths(reqs(), "/upload/")
	res, err := ingest.Resume(t.Context(), svc, dir)
	if err != nil || len(res) != 1 || res[0].Truncated != 0 {
		t.Fatalf("second Resume = %+v, %v", res, err)
	}
	if n := countPaths(reqs(), "/upload/") - before; n != 1 {
		t.Errorf("second Resume uploaded %d widget files; want only the one not stored (1)", n)
	}
	var ids []string
	for _, s := range sentSnapshots(t, reqs()) {
		id, _ := s["widgetHtmlBlobId"].(string)
		ids = append(ids, id)
	}
	if strings.Join(ids, ",") != "stg_1,stg_3" {
		t.Errorf("blob ids sent: %v; want the first upload's and the retried one's", ids)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.widget.html*")); len(left) != 0 {
		t.Errorf("widget files or their ids left after the run was finalized: %v", left)
	}
}
