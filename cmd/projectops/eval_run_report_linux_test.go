package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// A report that passes the up-front check but still cannot be written
// after the run (/dev/full: the disk filled meanwhile) loses neither the
// run's id nor its verdict: both are printed before the write error, and
// the exit status is 2.
func TestEvalRunReportWriteFailureKeepsTheVerdict(t *testing.T) {
	demoAPI(t)
	t.Setenv("PROJECTOPS_PROJECT", "prj_demo")
	for _, flag := range []string{"--junit", "--summary"} {
		code, out, errOut := runCLI(t, "eval", "run", "--suite", "evs_smoke", "--wait", "--interval", "1ms", flag, "/dev/full")
		if code != 2 {
			t.Errorf("%s /dev/full: exit %d, want 2", flag, code)
		}
		if !strings.Contains(out, "pass rate") || !strings.Contains(out, "run run_") {
			t.Errorf("%s /dev/full: the verdict is not printed:\nstdout %q", flag, out)
		}
		if !strings.Contains(errOut, flag+" /dev/full was not written: no space left on device") || !strings.Contains(errOut, "ended with verdict") {
			t.Errorf("%s /dev/full: stderr %q", flag, errOut)
		}
	}
}

// Both reports are tried: a --junit that cannot be written does not cost
// the --summary, and the error names each report that was not written.
func TestEvalRunWritesEachReportItCan(t *testing.T) {
	demoAPI(t)
	t.Setenv("PROJECTOPS_PROJECT", "prj_demo")
	summary := filepath.Join(t.TempDir(), "summary.md")
	code, _, errOut := runCLI(t, "eval", "run", "--suite", "evs_smoke", "--wait", "--interval", "1ms", "--junit", "/dev/full", "--summary", summary)
	if b, err := os.ReadFile(summary); err != nil || !strings.Contains(string(b), "### Eval run") {
		t.Errorf("--summary not written after --junit failed: %q (%v)", b, err)
	}
	if code != 2 || !strings.Contains(errOut, "--junit /dev/full was not written") {
		t.Errorf("exit %d, stderr %q; want 2 and the --junit failure said", code, errOut)
	}
	// Both failing (the summary's directory removed since the check):
	// each is said, on one line.
	ec := &evalCmd{app: &app{}}
	missing := filepath.Join(t.TempDir(), "gone", "s.md")
	err := ec.writeReports(&evals.Run{ID: "run_1"}, nil, nil, "/dev/full", missing)
	if err == nil || !strings.Contains(err.Error(), "--junit /dev/full was not written") ||
		!strings.Contains(err.Error(), "--summary "+missing+" was not written") || strings.Contains(err.Error(), "\n") {
		t.Errorf("writeReports = %v, want both failures said on one line", err)
	}
}
