package ingest_test

// A snapshot that names its stored HTML (widgetHtmlBlobId) is sent without
// an inline copy, as the service's reporter sends it
// (uploadWidgetSnapshots), and that copy is never uploaded over the id.

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// storedBlob uploads html to the double and returns its storage id.
func storedBlob(t *testing.T, f *fixture, html string) string {
	t.Helper()
	u, err := f.c.Ingest.UploadURL(t.Context(), f.ws.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	up, err := f.c.Ingest.UploadArtifact(t.Context(), u.UploadURL, "text/html; charset=utf-8", strings.NewReader(html))
	if err != nil {
		t.Fatal(err)
	}
	return up.StorageID
}

// onlySnapshot is the one widget snapshot of the one row stored for runID,
// as the double received it.
func onlySnapshot(t *testing.T, f *fixture, runID string) map[string]any {
	t.Helper()
	its, _ := f.srv.IngestedIterations(runID)
	if len(its) != 1 {
		t.Fatalf("iterations = %d, want 1", len(its))
	}
	var row struct {
		WidgetSnapshots []map[string]any `json:"widgetSnapshots"`
	}
	if err := json.Unmarshal(its[0].Raw, &row); err != nil {
		t.Fatal(err)
	}
	if len(row.WidgetSnapshots) != 1 {
		t.Fatalf("snapshots: %s", its[0].Raw)
	}
	return row.WidgetSnapshots[0]
}

// The Reporter sends a snapshot with a blob id without its inline HTML,
// whether the result fits a chunk or not, and uploads nothing over the
// caller's id (nor counts the result cut).
func TestReporterBlobIDDropsInlineWidgetHTML(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		inline string
	}{{"fits", "<html>cached inline</html>"}, {"too large", "<html>" + strings.Repeat("w", 6000) + "</html>"}} {
		f := setup(t)
		id := storedBlob(t, f, "<html>stored</html>")
		uploads := len(routeStatuses(f.srv, routeUploadURL))
		r, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) {
			o.Project, o.ChunkBytes, o.Strict = f.ws.ProjectID, 4096, true
		})
		record(t, r, []ingest.Result{{CaseTitle: "case-1", Passed: true,
			WidgetSnapshots: []ingest.WidgetSnapshot{{ToolCallID: "call-1", ToolName: "create_view",
				ServerID: "server-1", ResourceURI: "ui://widget/v.html", WidgetHTML: tc.inline, WidgetHTMLBlobID: id}}}})
		out, err := r.Close(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		s := onlySnapshot(t, f, out.Run.RunID)
		if s["widgetHtmlBlobId"] != id {
			t.Errorf("%s: widgetHtmlBlobId = %v, want the caller's %s", tc.name, s["widgetHtmlBlobId"], id)
		}
		if _, ok := s["widgetHtml"]; ok {
			t.Errorf("%s: inline widgetHtml sent next to widgetHtmlBlobId: %v", tc.name, s)
		}
		if n := len(routeStatuses(f.srv, routeUploadURL)); n != uploads || out.Truncated != 0 {
			t.Errorf("%s: %d uploads, %d truncated; want none", tc.name, n-uploads, out.Truncated)
		}
	}
}

// A TBRecorder keeps no widget file for a snapshot that names its blob:
// Resume sends the caller's id, without the inline HTML.
func TestTBRecorderBlobIDDropsInlineWidgetHTML(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := storedBlob(t, f, "<html>stored</html>")
	dir := t.TempDir()
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: dir, Suite: "widgets", Getenv: func(string) string { return "" }})
	rec.Record(t, ingest.Result{CaseTitle: "renders", Passed: true,
		WidgetSnapshots: []ingest.WidgetSnapshot{{ToolCallID: "tc", ToolName: "show", ServerID: "srv_1", ResourceURI: "ui://w",
			WidgetHTML: "<html>" + strings.Repeat("widget ", 300_000) + "</html>", WidgetHTMLBlobID: id}}})
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if w, _ := filepath.Glob(filepath.Join(dir, "*.widget.html")); len(w) != 0 {
		t.Errorf("widget files kept for a snapshot with a blob id: %v", w)
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err != nil || len(res) != 1 {
		t.Fatalf("Resume = %+v, %v", res, err)
	}
	s := onlySnapshot(t, f, res[0].Run.RunID)
	if _, ok := s["widgetHtml"]; ok || s["widgetHtmlBlobId"] != id {
		t.Errorf("snapshot sent: %v; want only the caller's blob id %s", s, id)
	}
}
