package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// reportEnv starts a double on loopback and points the CLI's client at it
// (environment variables: these tests cannot run in parallel).
func reportEnv(t *testing.T) *projectopstest.Server {
	t.Helper()
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	base, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PROJECTOPS_BASE_URL", base)
	t.Setenv("PROJECTOPS_API_KEY", srv.Default().APIKey)
	t.Setenv(ingest.EnvExternalRunID, "")
	t.Setenv(ingest.EnvSpoolDir, t.TempDir())
	return srv
}

func runReportCLI(t *testing.T, in string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	old := stdin
	stdin = strings.NewReader(in)
	defer func() { stdin = old }()
	var o, e bytes.Buffer
	code = run(context.Background(), args, &o, &e)
	return code, o.String(), e.String()
}

func TestReportStdin(t *testing.T) {
	srv := reportEnv(t)
	in, err := os.ReadFile("../../ingest/testdata/gotest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// The stream has failing tests: report's verdict is the run's (exit 1).
	code, out, errOut := runReportCLI(t, string(in), "report", "--external-run-id", "cli-1", "--suite", "demo")
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Non-event lines pass through; failing tests print with their output
	// as they end (gotestsum's default), passing ones do not.
	if !strings.HasPrefix(out, "go: downloading example.com/x v1.0.0\n") || !strings.Contains(out, "--- FAIL: TestFail (0.00s)\n    ok_test.go:8: about to fail") ||
		strings.Contains(out, "TestOK") {
		t.Errorf("stdout = %q", out)
	}
	if !strings.Contains(errOut, "12 passed, 10 failed, 4 skipped; run run_") || !strings.Contains(errOut, "(22 stored") {
		t.Errorf("summary = %q", errOut)
	}
	runs := srv.IngestedRuns("")
	if len(runs) != 1 || runs[0].ExternalRunID != "cli-1" || runs[0].SuiteName != "demo" || runs[0].Summary.Total != 22 {
		t.Errorf("runs = %+v", runs)
	}
}

// "-- command" passes the command's output through unchanged and exits
// with its code.
func TestReportCommand(t *testing.T) {
	srv := reportEnv(t)
	dir := t.TempDir()
	events := `{"Action":"run","Package":"p","Test":"TestA"}` + "\n" + `{"Action":"output","Package":"p","Test":"TestA","Output":"hi\n"}` + "\n" +
		`{"Action":"pass","Package":"p","Test":"TestA","Elapsed":0.1}` + "\n" + "plain line\n"
	if err := os.WriteFile(filepath.Join(dir, "events"), []byte(events), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runReportCLI(t, "", "report", "--external-run-id", "cmd-1", "--", "sh", "-c", "cat "+filepath.Join(dir, "events")+"; exit 3")
	if code != 3 || out != events {
		t.Errorf("exit %d, stdout %q: want 3 and the output unchanged", code, out)
	}
	// A "go test" without -json gets -json and prints the events' text.
	fakeGo := filepath.Join(dir, "go")
	script := "#!/bin/sh\necho \"args: $*\" >&2\ncat " + filepath.Join(dir, "events") + "\n"
	if err := os.WriteFile(fakeGo, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runReportCLI(t, "", "report", "--external-run-id", "cmd-2", "--", fakeGo, "test", "-run", "X", "./...")
	if code != 0 || out != "plain line\n" || !strings.Contains(errOut, "args: test -json -run X ./...") {
		t.Errorf("exit %d, stdout %q, stderr %q (a passing test prints nothing without -v)", code, out, errOut)
	}
	code, out, _ = runReportCLI(t, "", "report", "--external-run-id", "cmd-3", "--", fakeGo, "test", "-v", "./...")
	if code != 0 || out != "hi\nplain line\n" {
		t.Errorf("-v: exit %d, stdout %q", code, out)
	}
	if runs := srv.IngestedRuns(""); len(runs) != 3 || runs[1].Summary.Passed != 1 {
		t.Errorf("runs = %+v", runs)
	}
}

func TestReportFileUploadAndResume(t *testing.T) {
	srv := reportEnv(t)
	code, _, errOut := runReportCLI(t, "", "report", "--junit", "../../ingest/testdata/junit.xml", "--upload", "--external-run-id", "j-1")
	if code != 1 { // two of its tests fail
		t.Fatalf("exit %d: %s", code, errOut)
	}
	run := srv.IngestedRuns("")[0]
	if run.Summary.Total != 4 || run.SuiteName != "junit" || !strings.Contains(run.Params.Notes, "junit artifact: stg_") {
		t.Fatalf("run = %+v", run)
	}
	id := run.Params.Notes[strings.Index(run.Params.Notes, "stg_"):]
	if data, ct, ok := srv.Artifact(id); !ok || ct != "application/xml" || !bytes.Contains(data, []byte("<testsuites")) {
		t.Errorf("artifact %s: %v %q", id, ok, ct)
	}

	// The service refuses; without --strict the exit status is the tests'
	// (two fail: 1) and the results wait in the spool.
	spool := t.TempDir()
	srv.SetFault("POST /projects/{projectId}/eval-ingest/report", projectopstest.Fault{Status: 403})
	code, _, errOut = runReportCLI(t, "", "report", "--jest", "../../ingest/testdata/jest.json", "--spool", spool, "--external-run-id", "j-2")
	if code != 1 || !strings.Contains(errOut, "NOT reported") || !strings.Contains(errOut, "report resume --spool "+spool+`"`) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	code, _, _ = runReportCLI(t, "", "report", "--strict", "--vitest", "../../ingest/testdata/jest.json", "--spool", spool, "--external-run-id", "j-3")
	if code != 2 {
		t.Errorf("--strict: exit %d, want 2", code)
	}
	srv.ClearFaults()
	code, out, errOut := runReportCLI(t, "", "report", "resume", "--spool", spool)
	if code != 0 || strings.Count(out, "results re-sent") != 2 {
		t.Errorf("resume: exit %d, %q %q", code, out, errOut)
	}
	if runs := srv.IngestedRuns(""); len(runs) != 3 || runs[1].Summary.Total != 3 || runs[2].Summary.Total != 3 {
		t.Errorf("runs after resume = %+v", runs)
	}
}

// A spool whose run another report completed meanwhile (same external run
// id) is resumed into a new run, and resume says so.
func TestReportResumeIntoACompleteRun(t *testing.T) {
	srv := reportEnv(t)
	spool := t.TempDir()
	srv.SetFault("POST /projects/{projectId}/eval-ingest/report", projectopstest.Fault{Status: 403})
	runReportCLI(t, "", "report", "--jest", "../../ingest/testdata/jest.json", "--spool", spool, "--external-run-id", "j-4")
	srv.ClearFaults()
	runReportCLI(t, "", "report", "--junit", "../../ingest/testdata/junit.xml", "--external-run-id", "j-4")
	code, out, errOut := runReportCLI(t, "", "report", "resume", "--spool", spool)
	if code != 0 || !strings.Contains(out, "run j-4 was complete without these results: they go to a new run") ||
		!strings.Contains(out, "(j-4-resumed-") || !strings.Contains(out, "3 results re-sent") {
		t.Errorf("resume: exit %d, %q %q", code, out, errOut)
	}
	if runs := srv.IngestedRuns(""); len(runs) != 2 || runs[1].Summary.Total != 3 {
		t.Errorf("runs = %+v", runs)
	}
}

func TestReportUsage(t *testing.T) {
	reportEnv(t)
	for _, args := range [][]string{
		{"report", "--junit", "a", "--jest", "b"},
		{"report", "--junit", "a", "--", "go", "test"},
		{"report", "--upload"},
		{"report", "extra"},
		{"report", "--"},
		{"report", "resume", "extra"},
	} {
		if code, _, _ := runReportCLI(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, _, errOut := runReportCLI(t, "", "report", "--junit", "/nonexistent.xml"); code != 2 || !strings.Contains(errOut, "no such file") {
		t.Errorf("missing file: exit %d %q", code, errOut)
	}
	// An empty spool says why it may be empty: go test's cache.
	if code, out, _ := runReportCLI(t, "", "report", "resume", "--spool", t.TempDir()); code != 0 || !strings.Contains(out, "-count=1") {
		t.Errorf("empty spool: exit %d %q", code, out)
	}
}

// Input that is not what the flag says is refused before anything is
// reported: no run is created, exit 2.
func TestReportRefusesWrongInput(t *testing.T) {
	for name, tc := range map[string]struct{ in, want string }{
		"plain go test text": {"=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\nok  \texample.com/a\t0.01s\n", `starts with "=== RUN   TestA"`},
		"empty stdin":        {"", "it is empty"},
		"blank stdin":        {"\n  \n", "it is empty"},
	} {
		t.Run(name, func(t *testing.T) {
			srv := reportEnv(t)
			code, _, errOut := runReportCLI(t, tc.in, "report")
			if code != 2 || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "go test -json") {
				t.Errorf("exit %d: %q", code, errOut)
			}
			if runs := srv.IngestedRuns(""); len(runs) != 0 {
				t.Errorf("a run was created: %+v", runs)
			}
		})
	}
	t.Run("malformed junit", func(t *testing.T) {
		srv := reportEnv(t)
		bad := filepath.Join(t.TempDir(), "bad.xml")
		if err := os.WriteFile(bad, []byte("<testsuites><testcase"), 0o600); err != nil {
			t.Fatal(err)
		}
		if code, _, errOut := runReportCLI(t, "", "report", "--junit", bad); code != 2 || !strings.Contains(errOut, "nothing was reported") {
			t.Errorf("exit %d: %q", code, errOut)
		}
		if runs := srv.IngestedRuns(""); len(runs) != 0 {
			t.Errorf("a run was created: %+v", runs)
		}
	})
}

// -q prints the summary alone.
func TestReportQuiet(t *testing.T) {
	reportEnv(t)
	in, err := os.ReadFile("../../ingest/testdata/gotest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runReportCLI(t, string(in), "report", "-q")
	if code != 1 || strings.Contains(out, "--- FAIL") || !strings.Contains(errOut, "12 passed, 10 failed") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// Two reports in one CI job (two steps) are two runs, and a failing test
// fails the gate even when the external run id names a run that already
// ended (its verdict is an earlier report's).
func TestSecondReportInOneCIJob(t *testing.T) {
	srv := reportEnv(t)
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_RUN_ID", "777")
	t.Setenv("GITHUB_JOB", "test")
	t.Setenv("GITHUB_RUN_ATTEMPT", "1")
	t.Setenv("GITHUB_ACTION", "__run")
	pass := `{"Action":"run","Package":"p","Test":"TestA"}` + "\n" + `{"Action":"pass","Package":"p","Test":"TestA","Elapsed":0.1}` + "\n"
	fail := `{"Action":"run","Package":"q","Test":"TestB"}` + "\n" + `{"Action":"fail","Package":"q","Test":"TestB","Elapsed":0.1}` + "\n"
	if code, _, e := runReportCLI(t, pass, "report"); code != 0 {
		t.Fatalf("first: exit %d %s", code, e)
	}
	// The same step again (a retry): the run has ended; the failure shows.
	if code, _, e := runReportCLI(t, fail, "report"); code != 1 {
		t.Errorf("same step, a failing test: exit %d, want 1; %s", code, e)
	}
	t.Setenv("GITHUB_ACTION", "__run_2")
	if code, _, e := runReportCLI(t, fail, "report"); code != 1 {
		t.Errorf("next step: exit %d, want 1; %s", code, e)
	}
	total := 0
	for _, r := range srv.IngestedRuns("") {
		total += r.Summary.Total
	}
	if total != 2 {
		t.Errorf("stored %d results, want 2 (the first step's and the second's)", total)
	}
}

// A go test run whose tests were all skipped is a passing run with nothing
// to store, not bad input.
func TestAllSkippedStreamPasses(t *testing.T) {
	reportEnv(t)
	in := `{"Action":"start","Package":"p"}` + "\n" +
		`{"Action":"run","Package":"p","Test":"TestIntegration"}` + "\n" +
		`{"Action":"output","Package":"p","Test":"TestIntegration","Output":"--- SKIP: TestIntegration (0.00s)\n"}` + "\n" +
		`{"Action":"skip","Package":"p","Test":"TestIntegration","Elapsed":0}` + "\n" +
		`{"Action":"pass","Package":"p","Elapsed":0.01}` + "\n"
	if code, _, e := runReportCLI(t, in, "report"); code != 0 || !strings.Contains(e, "1 skipped; nothing to report") {
		t.Errorf("exit %d: %s", code, e)
	}
}

// A Jest or Vitest test file that failed to run (no failing test in it)
// is a failure: the run fails and the file's message is kept.
func TestTestFileThatFailedToRunFails(t *testing.T) {
	srv := reportEnv(t)
	for _, format := range []string{"jest", "vitest"} {
		p := filepath.Join(t.TempDir(), format+".json")
		j := `{"numFailedTestSuites":1,"numTotalTests":1,"success":false,"testResults":[` +
			`{"name":"/x/ok.test.js","status":"passed","message":"","assertionResults":[{"ancestorTitles":[],"fullName":"ok","title":"ok","status":"passed","duration":1,"failureMessages":[]}]},` +
			`{"name":"/x/broken.test.js","status":"failed","message":"Test suite failed to run\n\n SyntaxError: Unexpected token","assertionResults":[]}]}`
		if err := os.WriteFile(p, []byte(j), 0o600); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := runReportCLI(t, "", "report", "--"+format, p, "--external-run-id", format+"-broken")
		if code != 1 || !strings.Contains(errOut, "1 passed, 1 failed") {
			t.Errorf("%s: exit %d: %s", format, code, errOut)
		}
	}
	var stored int
	for _, r := range srv.IngestedRuns("") {
		stored += r.Summary.Failed
	}
	if stored != 2 {
		t.Errorf("%d failures stored, want 2", stored)
	}
}

// A results file cut short is refused whole before anything is sent: no
// run is left with the results before the break.
func TestMalformedFileSendsNothing(t *testing.T) {
	srv := reportEnv(t)
	p := filepath.Join(t.TempDir(), "r.xml")
	x := `<?xml version="1.0"?><testsuites><testsuite name="s">` +
		`<testcase classname="c" name="a" time="0.1"/>` +
		`<testcase classname="c" name="b" time="0.1"/>` +
		`<testcase classname="c" name="c"><failure message="m">boo`
	if err := os.WriteFile(p, []byte(x), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runReportCLI(t, "", "report", "--junit", p, "--external-run-id", "junit-cut"); code != 2 ||
		!strings.Contains(errOut, "nothing was reported") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if runs := srv.IngestedRuns(""); len(runs) != 0 {
		t.Errorf("a malformed file created %d run(s)", len(runs))
	}
}

// </dev/null is empty input, not a terminal (both are character devices).
func TestDevNullIsEmptyInput(t *testing.T) {
	t.Parallel()
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := goTestInput(f); err == nil || !strings.Contains(err.Error(), "it is empty") {
		t.Errorf("err = %v", err)
	}
}

// A second report under the external run id of a complete run stores
// nothing; the summary says so rather than showing the earlier run as
// this report's, and the tests' own failures decide the exit status.
func TestReportIntoACompleteRunSaysSo(t *testing.T) {
	reportEnv(t)
	var in strings.Builder
	for i := range 201 { // over one chunk: the chunked flow, which knows
		fmt.Fprintf(&in, `{"Action":"pass","Package":"p","Test":"TestP%d"}`+"\n", i)
	}
	if code, _, errOut := runReportCLI(t, in.String(), "report", "--external-run-id", "same"); code != 0 {
		t.Fatalf("first report: exit %d, %q", code, errOut)
	}
	in.WriteString(`{"Action":"fail","Package":"p","Test":"TestF"}` + "\n")
	code, _, errOut := runReportCLI(t, in.String(), "report", "--external-run-id", "same")
	if code != 1 || !strings.Contains(errOut, "NOT reported: run ") || !strings.Contains(errOut, "already complete") {
		t.Errorf("second report: exit %d, stderr %q", code, errOut)
	}
	// One-shot, the service's answer cannot tell; the counts can.
	code, _, errOut = runReportCLI(t, "", "report", "--jest", "../../ingest/testdata/jest.json", "--external-run-id", "same")
	if code != 1 || !strings.Contains(errOut, "may have been used by an earlier report") {
		t.Errorf("one-shot report: exit %d, stderr %q", code, errOut)
	}
}

// A retried CI step reports the same results under the same external run
// id: the run is complete already, so its verdict is not these results'.
// Under --min-pass-rate the results' own pass rate decides, as it did the
// first time (any failing test failed the retry).
func TestReportReusedRunUnderPassCriterion(t *testing.T) {
	reportEnv(t)
	var in strings.Builder
	for i := range 200 {
		fmt.Fprintf(&in, `{"Action":"pass","Package":"p","Test":"TestP%d"}`+"\n", i)
	}
	in.WriteString(`{"Action":"fail","Package":"p","Test":"TestF"}` + "\n")
	for _, rate := range []struct {
		min  string
		code int
	}{{"50", 0}, {"50", 0}, {"100", 1}} {
		args := []string{"report", "--external-run-id", "retried", "--min-pass-rate", rate.min}
		if code, _, errOut := runReportCLI(t, in.String(), args...); code != rate.code {
			t.Fatalf("--min-pass-rate %s: exit %d, want %d; stderr %q", rate.min, code, rate.code, errOut)
		}
	}
}

// The fallback judges as the service does at the boundary: 290 of 1000 is
// 28.999…% in floating point, which meets 29 there.
func TestReportReusedRunPassRateBoundary(t *testing.T) {
	reportEnv(t)
	var in strings.Builder
	for i := range 290 {
		fmt.Fprintf(&in, `{"Action":"pass","Package":"p","Test":"TestP%d"}`+"\n", i)
	}
	for i := range 710 {
		fmt.Fprintf(&in, `{"Action":"fail","Package":"p","Test":"TestF%d"}`+"\n", i)
	}
	for attempt := 1; attempt <= 2; attempt++ {
		args := []string{"report", "--external-run-id", "edge", "--min-pass-rate", "29"}
		if code, _, errOut := runReportCLI(t, in.String(), args...); code != 0 {
			t.Errorf("attempt %d: exit %d, want 0 (290/1000 meets 29%%, as the service judged); stderr %q", attempt, code, errOut)
		}
	}
}

// resume takes --project, as scripts pass it to every command, and sends
// each run to the project it was recorded for; a run recorded for another
// project than --project names is said so.
func TestReportResumeProjectFlag(t *testing.T) {
	reportEnv(t)
	none := func(string) string { return "" }
	for _, tc := range []struct {
		project string
		note    bool
	}{{ingest.DefaultProject, false}, {"prj_2", true}} {
		spool := t.TempDir()
		rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: spool, Getenv: none})
		rec.Record(t, ingest.Result{CaseTitle: "c", Passed: true})
		_ = rec.Close()
		code, out, errOut := runReportCLI(t, "", "report", "resume", "--project", tc.project, "--spool", spool)
		if code != 0 || !strings.Contains(out, "1 results re-sent") || strings.Contains(errOut, "goes to project default") != tc.note {
			t.Errorf("--project %s: exit %d, %q %q", tc.project, code, out, errOut)
		}
	}
}
