package ingest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/ingest"
)

// A widget file's kept blob id goes before the file, and the file only
// once its id is gone: here the id cannot be removed (a non-empty
// directory stands in its place), so the widget file stays rather than
// leave an id without its file. Once the id can go, the next resume's
// orphan cleanup removes both, the spool being gone.
func TestResumeRemovesAWidgetFileOnlyAfterItsStoredID(t *testing.T) {
	t.Parallel()
	svc, _ := fakeIngest(t, `{"storageId":"stg_1"}`)
	dir := t.TempDir()
	w := spoolWidgets(t, dir, 1)[0]
	if err := os.MkdirAll(filepath.Join(w+".stored", "stuck"), 0o700); err != nil {
		t.Fatal(err)
	}
	if res, err := ingest.Resume(t.Context(), svc, dir); err != nil || len(res) != 1 {
		t.Fatalf("Resume = %+v, %v; want the run delivered", res, err)
	}
	if _, err := os.Stat(w); err != nil {
		t.Errorf("widget file removed while its id stays: %v", err)
	}
	if err := os.Remove(filepath.Join(w+".stored", "stuck")); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Minute)
	for _, p := range []string{w, w + ".stored"} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ingest.Resume(t.Context(), svc, dir); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.widget.html*")); len(left) != 0 {
		t.Errorf("orphans left: %v", left)
	}
}

// Resume removes the widget files and kept blob ids no spool file belongs
// to (a resume killed between removing a spool and its widget files left
// them) once a minute old, as it does orphaned run id files; a younger
// one, and an old one whose spool a live recorder still writes, stay.
func TestResumeRemovesOrphanWidgetFiles(t *testing.T) {
	t.Parallel()
	svc, _ := fakeIngest(t, `{}`)
	dir := t.TempDir()
	live := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: dir, Suite: "live", Getenv: func(string) string { return "" }})
	live.Record(t, ingest.Result{CaseTitle: "renders", Passed: true, WidgetSnapshots: []ingest.WidgetSnapshot{{ToolCallID: "tc",
		ToolName: "show", ServerID: "srv_1", ResourceURI: "ui://w", WidgetHTML: strings.Repeat("widget ", 160_000)}}})
	t.Cleanup(func() { _ = live.Close() })
	liveW, _ := filepath.Glob(filepath.Join(dir, "*.widget.html"))
	if len(liveW) != 1 {
		t.Fatalf("live recorder's widget files: %v", liveW)
	}
	orphans := []string{"gone.1-ab.w1-0.widget.html", "gone.1-ab.w1-0.widget.html.stored", "gone.1-ab.w2-3.widget.html.stored"}
	young := "young.1-ab.w1-0.widget.html"
	old := time.Now().Add(-2 * time.Minute)
	for _, name := range append(orphans, young) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range append([]string{liveW[0]}, orphans...) {
		if err := os.Chtimes(filepath.Join(dir, filepath.Base(p)), old, old); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ingest.Resume(t.Context(), svc, dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range orphans {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("orphan %s kept", name)
		}
	}
	for _, p := range []string{filepath.Join(dir, young), liveW[0]} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed: %v", filepath.Base(p), err)
		}
	}
}

// The widget files of a damaged spool file moved aside stay with it, for
// inspection, however old: the orphan cleanup leaves them until the
// damaged file is removed.
func TestResumeKeepsTheWidgetFilesOfADamagedSpool(t *testing.T) {
	t.Parallel()
	svc, _ := fakeIngest(t, `{}`)
	dir := t.TempDir()
	kept := []string{"kept.1-ab.w1-0.widget.html", "kept.1-ab.w1-0.widget.html.stored"}
	old := time.Now().Add(-2 * time.Minute)
	for _, name := range append(kept, "kept.1-ab"+ingest.SpoolExt+ingest.DamagedExt) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if res, err := ingest.Resume(t.Context(), svc, dir); err != nil || len(res) != 0 {
		t.Fatalf("Resume = %+v, %v; want nothing to do", res, err)
	}
	for _, name := range kept {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s removed: %v", name, err)
		}
	}
}
