package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// junitFile writes x to a file in a temporary directory and returns its
// path.
func junitFile(t *testing.T, x string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "report.xml")
	if err := os.WriteFile(p, []byte(x), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// A time JSON cannot carry passed the pre-check, then failed the send
// mid-run (exit 2, part of the run sent); it is now no duration.
func TestReportJUnitNonFiniteTime(t *testing.T) {
	srv := reportEnv(t)
	p := junitFile(t, `<testsuite><testcase name="a" time="1"/><testcase name="b" time="NaN"/><testcase name="c" time="1e400"/></testsuite>`)
	code, _, errOut := runReportCLI(t, "", "report", "--junit", p, "--external-run-id", "nan-1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if runs := srv.IngestedRuns(""); len(runs) != 1 || runs[0].Summary.Total != 3 {
		t.Errorf("runs = %+v", runs)
	}
}

// --upload sends the raw file only when it yields results: a file then
// refused for having none ("nothing was reported"), or whose tests were
// all skipped, was uploaded first all the same.
func TestReportUploadOnlyWithResults(t *testing.T) {
	srv := reportEnv(t)
	for _, c := range []struct {
		x    string
		code int
	}{
		{`<testsuite name="empty"/>`, 2},
		{`<testsuite><testcase name="a"><skipped/></testcase></testsuite>`, 0},
	} {
		before := len(srv.Requests())
		code, _, errOut := runReportCLI(t, "", "report", "--junit", junitFile(t, c.x), "--upload")
		if code != c.code {
			t.Errorf("%s: exit %d, want %d: %s", c.x, code, c.code, errOut)
		}
		for _, r := range srv.Requests()[before:] {
			t.Errorf("%s: request %s %s", c.x, r.Method, r.Path)
		}
		if strings.Contains(errOut, "uploading") {
			t.Errorf("%s: stderr %q", c.x, errOut)
		}
	}
}

// A run refused up front (its options) uploads nothing: the options are
// checked before the file goes up (it left an upload no run refers to).
func TestReportUploadAfterOptionsCheck(t *testing.T) {
	srv := reportEnv(t)
	for _, args := range [][]string{
		{"--external-run-id", strings.Repeat("r", 300)},
		{"--suite", " "},
	} {
		p := junitFile(t, `<testsuite><testcase name="a"/></testsuite>`)
		before := len(srv.Requests())
		code, _, errOut := runReportCLI(t, "", append([]string{"report", "--junit", p, "--upload"}, args...)...)
		if code != 2 {
			t.Fatalf("%v: exit %d, want 2 (options refused): %s", args, code, errOut)
		}
		for _, r := range srv.Requests()[before:] {
			t.Errorf("%v: refused run, yet request %s %s (stderr %q)", args, r.Method, r.Path, errOut)
		}
	}
}
