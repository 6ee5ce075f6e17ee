package main

import (
	"os"
	"strings"
	"testing"
)

// "-" reads a results file from standard input, as for every input flag,
// and is checked whole before anything is sent: a file of that name is
// never opened, and the temporary copy is gone afterwards.
func TestReportResultsFileFromStdin(t *testing.T) {
	reportEnv(t)
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	t.Chdir(dir)
	if err := os.WriteFile("-", []byte("not xml"), 0o600); err != nil {
		t.Fatal(err)
	}
	x := `<testsuite><testcase name="a"/><testcase name="b"><failure message="no"/></testcase></testsuite>`
	code, _, errOut := runReportCLI(t, x, "report", "--junit", "-", "--external-run-id", "stdin-1", "--upload")
	if code != 1 || !strings.Contains(errOut, "1 passed, 1 failed") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Cut short: refused whole, nothing reported.
	code, _, errOut = runReportCLI(t, `{"numTotalTests":`, "report", "--jest", "-", "--external-run-id", "stdin-2")
	if code != 2 || !strings.Contains(errOut, "nothing was reported") {
		t.Errorf("a cut Jest file on stdin: exit %d: %s", code, errOut)
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 1 || left[0].Name() != "-" {
		t.Errorf("left in the temporary directory: %v", left)
	}
}
