package ingest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// Two go test invocations before one resume (a failure, then the fix) are
// two runs: neither verdict is dropped for sharing the other's row ids.
func TestTBTwoInvocationsBeforeResumeAreTwoRuns(t *testing.T) {
	t.Parallel()
	f := setup(t)
	spool := t.TempDir()
	none := func(string) string { return "" }
	for i, passed := range []bool{false, true} {
		rec := ingest.NewTBRecorderIn(ingest.TBOptions{SpoolDir: spool, Getenv: none}, "go-build"+string(rune('1'+i)))
		rec.Record(&fakeTB{name: "TestOnlyB"}, ingest.Result{Passed: passed})
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, spool)
	if err != nil || len(res) != 2 {
		t.Fatalf("resume = %+v, %v; want two runs", res, err)
	}
	results := map[string]int{}
	for _, g := range res {
		if g.Run.Summary.Total != 1 {
			t.Errorf("run %s holds %d rows, want 1", g.ExternalRunID, g.Run.Summary.Total)
		}
		results[g.Run.Result]++
	}
	if results[ingest.ResultFailed] != 1 || results[ingest.ResultPassed] != 1 {
		t.Errorf("verdicts %v, want one failed run and one passed", results)
	}
	if ids := runIDFiles(t, spool); len(ids) != 0 {
		t.Errorf("run id files kept: %q", ids)
	}
}

// Recorders of one invocation with different suites record into a run per
// suite (a run belongs to one suite); an explicit run id given to two
// suites is refused by Resume, which keeps the later suite's file.
func TestTBSuitesAreRunsOfTheirOwn(t *testing.T) {
	t.Parallel()
	f := setup(t)
	spool := t.TempDir()
	none := func(string) string { return "" }
	for _, suite := range []string{"suite A", "suite B"} {
		rec := ingest.NewTBRecorderIn(ingest.TBOptions{SpoolDir: spool, Suite: suite, Getenv: none}, "go-build1")
		rec.Record(&fakeTB{name: "TestX"}, ingest.Result{Passed: true})
		_ = rec.Close()
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, spool)
	if err != nil || len(res) != 2 {
		t.Fatalf("resume = %+v, %v; want a run per suite", res, err)
	}
	suites := map[string]bool{}
	for _, r := range f.srv.IngestedRuns("") {
		suites[r.SuiteName] = true
	}
	if !suites["suite A"] || !suites["suite B"] {
		t.Errorf("stored suites %v", suites)
	}

	explicit := t.TempDir()
	named := func(k string) string { return map[string]string{ingest.EnvExternalRunID: "nightly-7"}[k] }
	for _, suite := range []string{"suite A", "suite B"} {
		rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: explicit, Suite: suite, Getenv: named})
		rec.Record(&fakeTB{name: "TestX"}, ingest.Result{Passed: true})
		_ = rec.Close()
	}
	res, err = ingest.Resume(t.Context(), f.c.Ingest, explicit)
	if err == nil || !strings.Contains(err.Error(), "one run of one suite") || len(res) != 1 {
		t.Fatalf("resume of one named run for two suites = %+v, %v", res, err)
	}
	if files := spoolFiles(t, explicit); len(files) != 1 {
		t.Errorf("spool files left: %v, want the refused suite's", files)
	}
}

// The run id and CI job are read when the recorder is made, as its other
// defaults: a test that sets the variable before the first Record does
// not rename the package's run.
func TestTBReadsTheRunIDWhenMade(t *testing.T) {
	t.Parallel()
	spool := t.TempDir()
	env := map[string]string{ingest.EnvExternalRunID: "made-with"}
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: spool, Getenv: func(k string) string { return env[k] }})
	env[ingest.EnvExternalRunID] = "set-by-a-test"
	rec.Record(&fakeTB{name: "TestX"}, ingest.Result{Passed: true})
	_ = rec.Close()
	files := spoolFiles(t, spool)
	if len(files) != 1 || !strings.HasPrefix(filepath.Base(files[0]), "made-with.") {
		t.Errorf("spool files %v, want the run named when the recorder was made", files)
	}
}

// A result's default title names the test after its package's import
// path, as "projectops report -- go test" does: the same test name in two
// packages is two titles.
func TestTBDefaultTitleNamesThePackage(t *testing.T) {
	t.Parallel()
	f := setup(t)
	spool := t.TempDir()
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: spool, Getenv: func(string) string { return "" }})
	rec.Record(&fakeTB{name: "TestX/sub"}, ingest.Result{Passed: true})
	_ = rec.Close()
	res, err := ingest.Resume(t.Context(), f.c.Ingest, spool)
	if err != nil || len(res) != 1 {
		t.Fatalf("resume = %+v, %v", res, err)
	}
	iters, _ := f.srv.IngestedIterations(res[0].Run.RunID)
	if len(iters) != 1 || iters[0].Input.CaseTitle != "github.com/projectops/projectops-go/ingest.TestX/sub" {
		t.Errorf("iterations %+v", iters)
	}
}

// go test builds every test binary of one invocation under its own work
// directory; a binary started by hand belongs to none.
func TestGoTestInvocation(t *testing.T) {
	t.Parallel()
	for exe, want := range map[string]string{
		"/tmp/go-build2993029212/b001/sub.test":      "go-build2993029212",
		"/var/tmp/x/go-build17/b042/pkg.test":        "go-build17",
		"/home/me/src/app/app.test":                  "",
		filepath.Join("C:", "go-build9", "pkg.test"): "",
	} {
		if got := ingest.GoTestInvocation(exe); got != want {
			t.Errorf("GoTestInvocation(%q) = %q, want %q", exe, got, want)
		}
	}
}

// A recording failure that does not fail the test (not Strict) is also
// written to standard error, once per recorder: tb.Logf alone is hidden for
// a passing test.
func TestTBRecordingFailureIsShownOnce(t *testing.T) {
	if os.Getenv(tbChild) == "warn" {
		rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: os.Getenv(ingest.EnvSpoolDir), Getenv: func(string) string { return "" }})
		for range 3 {
			rec.Record(t, ingest.Result{Passed: true})
		}
		return
	}
	t.Parallel()
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestTBRecordingFailureIsShownOnce$")
	cmd.Env = append(os.Environ(), tbChild+"=warn", ingest.EnvSpoolDir+"="+file)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("child: %v\n%s%s", err, out, stderr.String())
	}
	if n := strings.Count(stderr.String(), "are not being recorded"); n != 1 {
		t.Errorf("stderr %q: the failure shown %d times, want once", stderr.String(), n)
	}
}
