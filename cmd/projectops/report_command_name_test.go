package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// goTestOneFailure is a go test -json stream with one failing test.
const goTestOneFailure = `{"Action":"start","Package":"example.com/p"}
{"Action":"run","Package":"example.com/p","Test":"TestZ"}
{"Action":"output","Package":"example.com/p","Test":"TestZ","Output":"--- FAIL: TestZ (0.00s)\n"}
{"Action":"fail","Package":"example.com/p","Test":"TestZ","Elapsed":0}
{"Action":"fail","Package":"example.com/p","Elapsed":0.01}
`

// linesWith returns the lines of s that contain sub.
func linesWith(s, sub string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return out
}

// assertLinesNamed fails unless s has a line containing sub and every
// such line starts with prefix.
func assertLinesNamed(t *testing.T, s, sub, prefix string) {
	t.Helper()
	lines := linesWith(s, sub)
	if len(lines) == 0 {
		t.Fatalf("no line with %q in %q", sub, s)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, prefix) {
			t.Errorf("line does not name the command (want prefix %q): %q", prefix, l)
		}
	}
}

// With --strict a reporting failure exits 2, and the summary line that
// carries the API error names the command, as every error line does.
func TestReportStrictFailureLineNamesCommand(t *testing.T) {
	reportEnv(t)
	code, _, errOut := runReportCLI(t, goTestOneFailure, "report", "-q", "--strict",
		"--project", "prj_missing", "--external-run-id", "strict-name")
	if code != 2 {
		t.Fatalf("exit %d, want 2 (--strict reporting failure); stderr %q", code, errOut)
	}
	assertLinesNamed(t, errOut, "404 NOT_FOUND", "projectops report: ")
}

// A run report resume cannot deliver is said once, on a line that names
// "projectops report resume", not a bare "projectops".
func TestReportResumeFailureLineNamesCommand(t *testing.T) {
	reportEnv(t)
	spool := t.TempDir()
	// A report the service refuses (unknown project) is spooled.
	code, _, errOut := runReportCLI(t, goTestOneFailure, "report", "-q", "--project", "prj_missing",
		"--spool", spool, "--external-run-id", "resume-name")
	if code != 1 || !strings.Contains(errOut, "NOT reported") {
		t.Fatalf("report: exit %d, stderr %q", code, errOut)
	}
	if m, _ := filepath.Glob(filepath.Join(spool, "*")); len(m) == 0 {
		t.Fatalf("nothing spooled in %s", spool)
	}
	code, _, errOut = runReportCLI(t, "", "report", "resume", "--spool", spool)
	if code != 2 {
		t.Fatalf("resume: exit %d, want 2; stderr %q", code, errOut)
	}
	assertLinesNamed(t, errOut, "404 NOT_FOUND", "projectops report resume: ")
	// Said once, with "(files kept)", then counted: not said again by
	// the error the resume returns.
	if n := len(linesWith(errOut, "run resume-name:")); n != 1 || !strings.Contains(errOut, "1 of 1 runs not resumed") {
		t.Errorf("the undelivered run is said %d times, want once, then counted:\n%s", n, errOut)
	}
}
