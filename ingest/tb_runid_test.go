package ingest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// gha is a GitHub Actions step's environment.
func gha(extra map[string]string) func(string) string {
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_RUN_ID": "77", "GITHUB_JOB": "test",
		"GITHUB_RUN_ATTEMPT": "1", "GITHUB_ACTION": "__run"}
	for k, v := range extra {
		env[k] = v
	}
	return func(k string) string { return env[k] }
}

// In one CI step, "projectops report -- go test" and a TBRecorder inside
// those tests are two runs: the recorder's results are not resumed into
// the reporter's finalized run (they were dropped, and the spool deleted).
func TestTBRecorderAndReporterInOneStepAreTwoRuns(t *testing.T) {
	t.Parallel()
	f := setup(t)
	spool := t.TempDir()
	r, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) {
		o.Run.ExternalRunID = ingest.ExternalRunID("", gha(nil))
		o.SpoolDir = spool
	})
	record(t, r, results("go-", 3, 0))
	if out, err := r.Close(t.Context()); err != nil || out.Run == nil {
		t.Fatalf("reporter: %+v, %v", out, err)
	}
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: spool, Getenv: gha(nil), Suite: "agent evals"})
	rec.Record(t, ingest.Result{CaseTitle: "eval", Passed: false, Error: "wrong tool"})
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, spool)
	if err != nil || len(res) != 1 || res[0].Resent != 1 || res[0].CompletedRunID != "" {
		t.Fatalf("resume = %+v, %v", res, err)
	}
	if ext := res[0].ExternalRunID; ext == ingest.ExternalRunID("", gha(nil)) || !strings.HasPrefix(ext, "gha-77-test-1-__run-") {
		t.Errorf("recorder's run id %q: want the step's id and a suffix of its own", ext)
	}
	if res[0].Run.Status != ingest.StatusCompleted || res[0].Run.Result != ingest.ResultFailed {
		t.Errorf("recorder's run = %+v", res[0].Run)
	}
	if runs := f.srv.IngestedRuns(""); len(runs) != 2 {
		t.Errorf("%d runs, want the reporter's and the recorder's", len(runs))
	}
}

// A spool whose run was finalized without its results (the id reused by
// another reporter) is delivered to a run of its own, named after it, and
// says so; nothing is dropped.
func TestResumeIntoACompleteRunDeliversToANewRun(t *testing.T) {
	t.Parallel()
	f := setup(t)
	spool := t.TempDir()
	env := gha(map[string]string{ingest.EnvExternalRunID: "shared"})
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: spool, Getenv: env})
	rec.Record(t, ingest.Result{CaseTitle: "late", Passed: true})
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	r, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.Run.ExternalRunID = "shared" })
	record(t, r, results("first-", 2, 0))
	if _, err := r.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, spool)
	if err != nil || len(res) != 1 {
		t.Fatalf("resume = %+v, %v", res, err)
	}
	g := res[0]
	if g.CompletedRunID != "shared" || !strings.HasPrefix(g.ExternalRunID, "shared-resumed-") || g.Resent != 1 ||
		g.Run == nil || g.Run.Summary.Total != 1 {
		t.Fatalf("resume = %+v (run %+v)", g, g.Run)
	}
	if files := spoolFiles(t, spool); len(files) != 0 {
		t.Errorf("spool kept: %v", files)
	}
	if res, err := ingest.Resume(t.Context(), f.c.Ingest, spool); err != nil || len(res) != 0 {
		t.Errorf("second resume = %+v, %v", res, err)
	}
}

// The recorder's shared run id is used up once Resume finalized its run,
// even when another spool in the directory failed: the next go test
// invocation records into a new run instead of the finalized one.
func TestRunIDFileGoesWithItsRunWhateverElseFailed(t *testing.T) {
	t.Parallel()
	f := setup(t)
	spool := t.TempDir()
	// A reporter's spool for a project that does not exist: its resume fails.
	r, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.Project = "prj_nope"; o.SpoolDir = spool })
	record(t, r, results("x-", 1, 0))
	if out, _ := r.Close(t.Context()); out.SpoolPath == "" {
		t.Fatal("no spool left by the failing reporter")
	}
	none := func(string) string { return "" }
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: spool, Getenv: none})
	rec.Record(t, ingest.Result{CaseTitle: "first invocation", Passed: true})
	_ = rec.Close()
	first := readRunIDFile(t, spool)
	if _, err := ingest.Resume(t.Context(), f.c.Ingest, spool); err == nil {
		t.Fatal("resume of the unknown project's spool succeeded")
	}
	if ids := runIDFiles(t, spool); len(ids) != 0 {
		t.Fatalf("run id file kept after its run was finalized: %q", ids)
	}
	rec = ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: spool, Getenv: none})
	rec.Record(t, ingest.Result{CaseTitle: "second invocation", Passed: false})
	_ = rec.Close()
	if second := readRunIDFile(t, spool); second == first {
		t.Fatalf("second invocation reuses the finalized run %s", first)
	}
	res, _ := ingest.Resume(t.Context(), f.c.Ingest, spool)
	var delivered bool
	for _, g := range res {
		delivered = delivered || g.Err == nil && g.Resent == 1 && g.CompletedRunID == "" && g.Run.Result == ingest.ResultFailed
	}
	if !delivered {
		t.Errorf("second invocation's result not delivered to a run of its own: %+v", res)
	}
}

// readRunIDFile returns the one run id a TBRecorder keeps in dir.
func readRunIDFile(t *testing.T, dir string) string {
	t.Helper()
	ids := runIDFiles(t, dir)
	if len(ids) != 1 {
		t.Fatalf("run id files in %s: %q, want one", dir, ids)
	}
	return ids[0]
}

// runIDFiles returns the run ids TBRecorders keep in dir.
func runIDFiles(t *testing.T, dir string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, ingest.RunIDFile+"*"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, strings.TrimSpace(string(b)))
	}
	return ids
}
