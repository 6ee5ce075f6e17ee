package ingest_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// Widget HTML kept beside the spool is redacted as the results are, header
// lines in the markup included, whether it stays inline or not.
func TestWidgetFilesAreRedacted(t *testing.T) {
	t.Parallel()
	secret := "<pre>Cookie: sessionid=abc123SECRET\nX-Api-Key: xk_live_9f8e7dSECRET\n</pre>\n"
	for _, size := range []int{10, 300_000} {
		dir := t.TempDir()
		html := "<html>" + secret + strings.Repeat("widget ", size) + "</html>"
		rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: dir, Suite: "widgets", Getenv: func(string) string { return "" }})
		rec.Record(t, ingest.Result{CaseTitle: "renders", Passed: true,
			WidgetSnapshots: []ingest.WidgetSnapshot{{ToolCallID: "tc", ToolName: "show", ServerID: "srv_1", ResourceURI: "ui://w", WidgetHTML: html}}})
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, fn := range files {
			if b, _ := os.ReadFile(fn); strings.Contains(string(b), "SECRET") {
				t.Errorf("size %d: %s holds a header secret", size, filepath.Base(fn))
			}
		}
	}
}

// A link planted under a widget file's name is neither written through
// nor, on Resume, read: the file it names keeps its content and is never
// uploaded.
func TestWidgetFilesFollowNoLinks(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		return // symlinks need privileges there
	}
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(victim, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: dir, Suite: "w", Getenv: func(string) string { return "" }})
	rec.Record(t, ingest.Result{CaseTitle: "first", Passed: true})
	spools, _ := filepath.Glob(filepath.Join(dir, "*"+ingest.SpoolExt))
	if len(spools) != 1 {
		t.Fatal(spools)
	}
	base := strings.TrimSuffix(spools[0], ingest.SpoolExt)
	if err := os.Symlink(victim, base+".w2-0.widget.html"); err != nil {
		t.Fatal(err)
	}
	rec.Record(t, ingest.Result{CaseTitle: "big", Passed: true, WidgetSnapshots: []ingest.WidgetSnapshot{{ToolCallID: "tc", ToolName: "show",
		ServerID: "s", ResourceURI: "ui://w", WidgetHTML: "<html>" + strings.Repeat("widget ", 300_000) + "</html>"}}})
	_ = rec.Close()
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Errorf("the file the link names was overwritten (%d bytes now)", len(b))
	}

	// On Resume, a widget file that is a link to the user's own file is
	// dropped, not uploaded.
	f := setup(t)
	dir2 := t.TempDir()
	spool := `{"kind":"run","v":1,"project":"default","run":{"suiteName":"links","externalRunId":"links-1"}}` + "\n" +
		`{"kind":"chunk","seq":1,"results":[{"caseTitle":"c","passed":true,"externalIterationId":"x","widgetSnapshots":` +
		`[{"toolCallId":"tc","toolName":"show","protocol":"mcp-apps","serverId":"s","resourceUri":"ui://w","toolMetadata":{},` +
		`"widgetCsp":null,"widgetPermissions":null,"widgetPermissive":false,"prefersBorder":false,` +
		`"widgetHtmlBlobId":"projectops-spool-file:own.w1-0.widget.html"}]}]}` + "\n"
	if err := os.WriteFile(filepath.Join(dir2, "own"+ingest.SpoolExt), []byte(spool), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir2, "own.w1-0.widget.html")); err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir2)
	if err != nil || len(res) != 1 {
		t.Fatalf("Resume = %+v, %v", res, err)
	}
	its, _ := f.srv.IngestedIterations(res[0].Run.RunID)
	if len(its) != 1 || its[0].Input.WidgetSnapshots[0].WidgetHTMLBlobID != "" {
		t.Fatalf("rows: %+v", its)
	}
}

// A spool directory that is this user's own link to a directory is used
// (macOS's /tmp is one); what is written lands in the directory.
func TestSpoolDirOwnLinkUsed(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		return // symlinks need privileges there
	}
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "spool")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: link, Suite: "w", Strict: true, Getenv: func(string) string { return "" }})
	ft := &fakeTB{name: "TestX"}
	rec.Record(ft, ingest.Result{CaseTitle: "c", Passed: true})
	_ = rec.Close()
	if spools, _ := filepath.Glob(filepath.Join(real, "*"+ingest.SpoolExt)); len(spools) != 1 || len(ft.errors) != 0 {
		t.Errorf("spools %v, errors %v", spools, ft.errors)
	}
}
