package ingest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
// suite (a run belongs to one suite); so does an explicit run id given to
// two suites: the first suite by name keeps it, the other's is named after
// both, whichever file comes first.
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
	if err != nil || len(res) != 2 {
		t.Fatalf("resume of one named run for two suites = %+v, %v", res, err)
	}
	for _, g := range res {
		want := "nightly-7"
		if suiteOf(t, f, g) == "suite B" {
			want = "nightly-7-suite-"
		}
		if !strings.HasPrefix(g.ExternalRunID, want) || g.CompletedRunID != "" || g.Run.Summary.Total != 1 {
			t.Errorf("%s's run: %+v (%+v), want %s... with its one row", suiteOf(t, f, g), g, g.Run, want)
		}
	}
	if files := spoolFiles(t, explicit); len(files) != 0 {
		t.Errorf("spool files left: %v", files)
	}
}

// suiteOf returns the suite name of g's run as the double stored it.
func suiteOf(t *testing.T, f *fixture, g ingest.ResumeResult) string {
	t.Helper()
	for _, r := range f.srv.IngestedRuns("") {
		if r.ID == g.Run.RunID {
			return r.SuiteName
		}
	}
	t.Fatalf("run %s not stored", g.Run.RunID)
	return ""
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
	cmd.Env = append(os.Environ(), tbChild+"=warn", ingest.EnvSpoolDir+"="+file, ingest.EnvStrict+"=0")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("child: %v\n%s%s", err, out, stderr.String())
	}
	if n := strings.Count(stderr.String(), "are not being recorded"); n != 1 {
		t.Errorf("stderr %q: the failure shown %d times, want once", stderr.String(), n)
	}
}

// Binaries started by hand (go test -c, -o) from one shell share a run
// until a resume, and each keeps its rows: a failure, then the fix, are
// both stored.
func TestTBHandRunBinariesKeepBothVerdicts(t *testing.T) {
	t.Parallel()
	f := setup(t)
	spool := t.TempDir()
	none := func(string) string { return "" }
	for _, passed := range []bool{false, true} {
		rec := ingest.NewTBRecorderIn(ingest.TBOptions{SpoolDir: spool, Getenv: none}, "ppid-1")
		rec.Record(&fakeTB{name: "TestOnlyB"}, ingest.Result{Passed: passed})
		_ = rec.Close()
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, spool)
	if err != nil || len(res) != 1 || res[0].Run.Summary.Total != 2 || res[0].Run.Summary.Passed != 1 {
		t.Fatalf("resume = %+v, %v; want one run holding both rows", res, err)
	}
}

// A run id file no spool file belongs to (its process killed before its
// first line) and a temporary one a killed process left are removed once
// old; a young one, whose process may be opening its spool, stays.
func TestResumeRemovesOrphanRunIDFiles(t *testing.T) {
	t.Parallel()
	f := setup(t)
	spool := t.TempDir()
	write := func(name, content string, age time.Duration) string {
		p := filepath.Join(spool, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		then := time.Now().Add(-age)
		if err := os.Chtimes(p, then, then); err != nil {
			t.Fatal(err)
		}
		return p
	}
	orphan := write(ingest.RunIDFile+".0123456789abcdef", "local-dead\n", time.Hour)
	young := write(ingest.RunIDFile+".fedcba9876543210", "local-starting\n", 0)
	tmp := write("."+ingest.RunIDFile+"-0011223344556677", "local-half\n", time.Hour)
	other := write(ingest.RunIDFile+".notes", "mine\n", time.Hour)
	if _, err := ingest.Resume(t.Context(), f.c.Ingest, spool); err != nil {
		t.Fatal(err)
	}
	for p, kept := range map[string]bool{orphan: false, young: true, tmp: false, other: true} {
		if _, err := os.Stat(p); (err == nil) != kept {
			t.Errorf("%s: kept %v, want %v", filepath.Base(p), err == nil, kept)
		}
	}
}

// A relative spool directory is where the package's directory puts it,
// whatever directory a test has moved to when it first records.
func TestTBRelativeSpoolDirIsReadWhenMade(t *testing.T) {
	t.Chdir(t.TempDir())
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: "spool", Getenv: func(string) string { return "" }})
	made, _ := os.Getwd()
	t.Chdir(t.TempDir())
	rec.Record(&fakeTB{name: "TestX"}, ingest.Result{Passed: true})
	_ = rec.Close()
	if files := spoolFiles(t, filepath.Join(made, "spool")); len(files) != 1 {
		t.Errorf("spool files where the recorder was made: %v", files)
	}
}

// In CI a recorder is strict unless PROJECTOPS_STRICT=0: a recording
// failure there fails the test, since nobody reads a passing package's
// output.
func TestTBIsStrictInCI(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		env    map[string]string
		strict bool
	}{
		"CI":                          {map[string]string{"GITLAB_CI": "true"}, true},
		"CI, PROJECTOPS_STRICT=0":     {map[string]string{"GITLAB_CI": "true", ingest.EnvStrict: "0"}, false},
		"no CI":                       {nil, false},
		"PROJECTOPS_STRICT=1":         {map[string]string{ingest.EnvStrict: "1"}, true},
		"CI, PROJECTOPS_STRICT=true":  {map[string]string{"GITLAB_CI": "true", ingest.EnvStrict: "true"}, true},
		"CI, PROJECTOPS_STRICT=false": {map[string]string{"GITLAB_CI": "true", ingest.EnvStrict: "false"}, false},
	} {
		rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: file, Getenv: func(k string) string { return tc.env[k] }})
		ft := &fakeTB{name: "TestX"}
		rec.Record(ft, ingest.Result{Passed: true})
		if got := len(ft.errors) == 1; got != tc.strict {
			t.Errorf("%s: test failed %v, want %v (%q)", name, got, tc.strict, ft.errors)
		}
	}
}

// An orphan run id file is found when the CI id is long too: spool file
// names keep only an id's first 64 characters, so two ids of one job (its
// id, then random parts) share a name's start, and the spool's header
// tells which run it belongs to.
func TestResumeRemovesOrphanRunIDOfALongID(t *testing.T) {
	t.Parallel()
	f := setup(t)
	spool := t.TempDir()
	job := "buildkite-" + strings.Repeat("0123456789abcdef", 5) // longer than a spool name keeps
	kept := func(k string) string { return map[string]string{ingest.EnvExternalRunID: job + "-kept"}[k] }
	// A spool Resume cannot deliver (its project does not exist): kept, with its run id.
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: spool, Project: "prj_nope", Getenv: kept})
	rec.Record(&fakeTB{name: "TestX"}, ingest.Result{Passed: true})
	_ = rec.Close()
	orphan := filepath.Join(spool, ingest.RunIDFile+".0123456789abcdef")
	if err := os.WriteFile(orphan, []byte(job+"-dead\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	then := time.Now().Add(-time.Hour)
	if err := os.Chtimes(orphan, then, then); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Resume(t.Context(), f.c.Ingest, spool); err == nil {
		t.Fatal("resume of the unknown project's spool succeeded")
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Errorf("orphan run id file of a long id kept: %v", err)
	}
	if files := spoolFiles(t, spool); len(files) != 1 {
		t.Errorf("spool files %v, want the undelivered one", files)
	}
}
