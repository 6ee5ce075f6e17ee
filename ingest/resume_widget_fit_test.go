package ingest_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// A result cut to the chunk limit when recorded, whose many spooled
// widgets' uploads all stored nothing, grows on resume (each dropped-HTML
// marker is longer than the spool reference it replaces): it is cut again
// to fit, so the body stays within what the service takes rather than
// being refused on every resume. Its snapshots keep their markers, and the
// cut is in its largest text.
func TestResumeCutsAResultTheMarkersOutgrew(t *testing.T) {
	t.Parallel()
	svc, reqs := fakeIngest(t, `{}`)
	dir := t.TempDir()
	const n = 40
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: dir, Suite: "widgets", Getenv: func(k string) string {
		if k == ingest.EnvExternalRunID {
			return "r" // a short id: the shortest spool references
		}
		return ""
	}})
	var snaps []ingest.WidgetSnapshot
	for i := range n {
		snaps = append(snaps, ingest.WidgetSnapshot{ToolCallID: "tc" + string(rune('A'+i)), ToolName: "show", ServerID: "srv_1",
			ResourceURI: "ui://w", WidgetHTML: "<html>" + strings.Repeat("widget ", 300) + "</html>"})
	}
	// The error alone is over a chunk: the result is cut to the limit.
	rec.Record(t, ingest.Result{CaseTitle: "renders", Error: strings.Repeat("boom ", 250_000), WidgetSnapshots: snaps})
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if w, _ := filepath.Glob(filepath.Join(dir, "*.widget.html")); len(w) != n {
		t.Fatalf("widget files spooled: %d, want %d", len(w), n)
	}
	res, err := ingest.Resume(t.Context(), svc, dir)
	if err != nil || len(res) != 1 || res[0].Resent != 1 || res[0].Truncated != 1 {
		t.Fatalf("Resume = %+v, %v; want the result delivered without its widgets' HTML", res, err)
	}
	sent := 0
	for _, r := range reqs() {
		if !strings.HasSuffix(r.Path, "/runs/iterations") {
			continue
		}
		sent++
		if len(r.Body) > ingest.MaxBodyBytes {
			t.Errorf("body of %d bytes sent: over the service's %d", len(r.Body), ingest.MaxBodyBytes)
		}
		var body struct {
			Results []json.RawMessage `json:"results"`
		}
		if err := json.Unmarshal([]byte(r.Body), &body); err != nil || len(body.Results) != 1 {
			t.Fatalf("body: %v, %d results", err, len(body.Results))
		}
		if l := len(body.Results[0]); l > ingest.DefaultChunkBytes-512 {
			t.Errorf("result of %d bytes sent: over the chunk's bound (%d)", l, ingest.DefaultChunkBytes-512)
		}
		var got ingest.Result
		if err := json.Unmarshal(body.Results[0], &got); err != nil {
			t.Fatal(err)
		}
		if len(got.WidgetSnapshots) != n || !strings.Contains(got.WidgetSnapshots[n-1].WidgetHTML, "widget HTML dropped") ||
			!strings.Contains(got.Error, "truncated by projectops") {
			t.Errorf("sent %d snapshots (last %.80q), error %.80q…; want every snapshot with its marker, the error cut",
				len(got.WidgetSnapshots), got.WidgetSnapshots[n-1].WidgetHTML, got.Error)
		}
	}
	if sent != 1 {
		t.Errorf("%d appends sent, want 1", sent)
	}
}
