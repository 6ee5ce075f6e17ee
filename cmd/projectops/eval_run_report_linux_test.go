package main

import (
	"strings"
	"testing"
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
