package ingest_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

const (
	tbChild      = "PROJECTOPS_INGEST_TB_CHILD"
	tbChildChdir = "PROJECTOPS_INGEST_TB_CHDIR"
)

// Two test processes (two packages of one go test run) record results with
// a TBRecorder; one Resume delivers them as a single run, finalized once.
// Both tests t.Chdir into one fixture directory before recording: their
// rows stay apart (a package is known by where its binary started).
func TestRecordTBAcrossProcesses(t *testing.T) {
	if os.Getenv(tbChild) != "" {
		rec := ingest.NewTBRecorder(ingest.TBOptions{})
		defer rec.Close()
		t.Chdir(os.Getenv(tbChildChdir))
		rec.Record(t, ingest.Result{Passed: true, Model: "gpt-x", Provider: "openai",
			ActualToolCalls: []ingest.ToolCall{{ToolName: "search", Arguments: map[string]any{"q": "go"}}},
			Tokens:          &ingest.Tokens{Input: 10, Output: 5, Total: 15},
			Metadata:        map[string]any{"relevance": 0.9}})
		rec.Record(t, ingest.Result{CaseTitle: "second", Passed: false, Error: "used key " + os.Getenv("PROJECTOPS_API_KEY")})
		return
	}
	t.Parallel()
	f := setup(t)
	spool, fixture := t.TempDir(), t.TempDir()
	for _, pkg := range []string{"pkga", "pkgb"} {
		dir := filepath.Join(t.TempDir(), pkg)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestRecordTBAcrossProcesses$")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), tbChild+"=1", tbChildChdir+"="+fixture, ingest.EnvSpoolDir+"="+spool, ingest.EnvExternalRunID+"=", ingest.EnvProject+"=",
			"GITHUB_ACTIONS=", "BUILDKITE=", "GITLAB_CI=", "CIRCLECI=", "PROJECTOPS_API_KEY="+f.ws.APIKey, ingest.EnvSuite+"=agent evals")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
	}
	if ids := runIDFiles(t, spool); len(ids) != 1 || !strings.HasPrefix(ids[0], "local-") {
		t.Fatalf("shared run id files: %q", ids)
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, spool)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || len(res[0].Files) != 2 || res[0].Run.Summary.Total != 4 || res[0].Run.Summary.Passed != 2 {
		t.Fatalf("resume = %+v", res)
	}
	runs := f.srv.IngestedRuns("")
	if len(runs) != 1 || runs[0].SuiteName != "agent evals" || runs[0].Status != ingest.StatusCompleted {
		t.Fatalf("runs = %+v", runs)
	}
	iters, _ := f.srv.IngestedIterations(runs[0].ID)
	ids := map[string]bool{}
	for _, it := range iters {
		ids[it.Input.ExternalIterationID] = true
		if strings.Contains(it.Input.Error, f.ws.APIKey) {
			t.Error("API key recorded")
		}
		if it.Input.CaseTitle == "github.com/projectops/projectops-go/ingest.TestRecordTBAcrossProcesses" && (it.Input.Tokens == nil || it.Input.Tokens.Total != 15 ||
			len(it.Input.ActualToolCalls) != 1 || it.Input.Metadata["relevance"] == nil) {
			t.Errorf("eval fields lost: %+v", it.Input)
		}
	}
	if len(ids) != 4 {
		t.Errorf("%d distinct iteration ids, want 4", len(ids))
	}
	if ids := runIDFiles(t, spool); len(ids) != 0 {
		t.Errorf("run id file kept after the run was finalized: %q", ids)
	}
}

// A TBRecorder reads its defaults through the options' Getenv only, and
// refuses a result the service would refuse (Strict: the test fails).
func TestTBRecorderOptions(t *testing.T) {
	t.Parallel()
	spool := t.TempDir()
	env := map[string]string{ingest.EnvSpoolDir: spool, ingest.EnvStrict: "1", ingest.EnvSuite: "from env"}
	rec := ingest.NewTBRecorder(ingest.TBOptions{Getenv: func(k string) string { return env[k] }})
	defer rec.Close()
	ft := &fakeTB{name: "TestX"}
	rec.Record(ft, ingest.Result{Passed: true})
	rec.Record(ft, ingest.Result{Passed: true, MatchOptions: &ingest.MatchOptions{ToolCallOrder: "random"}})
	if len(ft.errors) != 1 || !strings.Contains(ft.errors[0], "ToolCallOrder") {
		t.Errorf("errors = %q, want the match options refusal", ft.errors)
	}
	entries, _ := os.ReadDir(spool)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) == 0 {
		t.Errorf("nothing spooled in the options' spool dir")
	}
}

type fakeTB struct {
	name   string
	errors []string
}

func (f *fakeTB) Name() string                    { return f.name }
func (f *fakeTB) Helper()                         {}
func (f *fakeTB) Logf(format string, args ...any) {}
func (f *fakeTB) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

// Widget HTML too large for a chunk waits beside the spool and goes through
// an upload URL on Resume, as the Reporter sends it at once; the widget
// files go with the spool.
func TestTBRecorderWidgetHTMLIsUploadedOnResume(t *testing.T) {
	t.Parallel()
	f := setup(t)
	dir := t.TempDir()
	html := "<html>" + strings.Repeat("widget ", 300_000) + "</html>" // ~2 MiB: over a chunk
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: dir, Suite: "widgets", Getenv: func(string) string { return "" }})
	rec.Record(t, ingest.Result{CaseTitle: "renders", Passed: true,
		WidgetSnapshots: []ingest.WidgetSnapshot{{ToolCallID: "tc", ToolName: "show", ServerID: "srv_1", ResourceURI: "ui://w", WidgetHTML: html}}})
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if w, _ := filepath.Glob(filepath.Join(dir, "*.widget.html")); len(w) != 1 {
		t.Fatalf("widget files beside the spool: %v", w)
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err != nil || len(res) != 1 {
		t.Fatalf("Resume = %+v, %v", res, err)
	}
	its, _ := f.srv.IngestedIterations(res[0].Run.RunID)
	if len(its) != 1 || len(its[0].Input.WidgetSnapshots) != 1 {
		t.Fatalf("rows: %+v", its)
	}
	id := its[0].Input.WidgetSnapshots[0].WidgetHTMLBlobID
	if data, ct, ok := f.srv.Artifact(id); !ok || string(data) != html || !strings.HasPrefix(ct, "text/html") {
		t.Errorf("artifact %q: %d bytes, %q, %v", id, len(data), ct, ok)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*.widget.html"))
	spools, _ := filepath.Glob(filepath.Join(dir, "*"+ingest.SpoolExt))
	if left = append(left, spools...); len(left) != 0 {
		t.Errorf("left after the run was finalized: %v", left)
	}
}
