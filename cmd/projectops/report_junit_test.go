package main

import (
	"os"
	"path/filepath"
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
