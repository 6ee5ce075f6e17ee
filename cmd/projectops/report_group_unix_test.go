//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Interrupted, report -- CMD sends CMD's whole process group SIGINT, as
// Ctrl-C does: a command that handles it can still write what it knows,
// and what it started that ignores it (a shell's background job) is
// killed before report exits, not left running.
func TestReportInterruptReachesTheCommandsGroup(t *testing.T) {
	reportEnv(t)
	setGrace(t, 2*time.Second)
	devnullStdin(t)
	dir := t.TempDir()
	pidFile, marker := filepath.Join(dir, "child.pid"), filepath.Join(dir, "trapped")
	script := `sleep 30 >/dev/null 2>&1 & echo $! > ` + pidFile + `
trap 'echo stopped > ` + marker + `; exit 3' INT TERM
echo '{"Action":"start","Package":"example.com/p"}'
echo '{"Action":"run","Package":"example.com/p","Test":"TestSlow"}'
while :; do sleep 0.1; done`
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(500*time.Millisecond, cancel)
	var o, e bytes.Buffer
	code := run(ctx, []string{"report", "-q", "--external-run-id", "group", "--", "sh", "-c", script}, &o, &e)
	if _, err := os.Stat(marker); err != nil || code != 3 {
		t.Errorf("exit %d (want the command's 3): its INT handler did not run (%v); stderr %q", code, err, e.String())
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	defer syscall.Kill(pid, syscall.SIGKILL)
	deadline := time.Now().Add(2 * time.Second)
	for syscall.Kill(pid, 0) == nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond) // the kill is sent; the process may take a moment to go
	}
	if syscall.Kill(pid, 0) == nil {
		t.Errorf("the command's background child (pid %d) outlived report", pid)
	}
}

const reportPipeChild = "PROJECTOPS_CLI_REPORT_PIPE_CHILD"

// "report < results | head": the reader going away does not kill report
// with SIGPIPE; the results are sent and the exit status is the tests'.
func TestReportIntoClosedPipeStillReports(t *testing.T) {
	if os.Getenv(reportPipeChild) != "" {
		os.Args = []string{"projectops", "report", "--external-run-id", "head-1"}
		main()
		return
	}
	srv := reportEnv(t)
	t.Setenv("PROJECTOPS_SPOOL_DIR", t.TempDir())
	in, err := os.ReadFile("../../ingest/testdata/gotest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReportIntoClosedPipeStillReports$")
	cmd.Env = append(os.Environ(), reportPipeChild+"=1")
	cmd.Stdin = bytes.NewReader(bytes.Repeat(in, 100))
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = w
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	_, _ = r.Read(make([]byte, 64)) // head -c 64
	r.Close()
	err = cmd.Wait()
	code := 0
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		code = ee.ExitCode() // -1 when a signal ended it
	}
	if runs := srv.IngestedRuns(""); len(runs) != 1 || code != 1 {
		t.Fatalf("report | head: exit %d (want the tests' 1), %d runs ingested (want 1); stderr %q",
			code, len(runs), strings.TrimSpace(stderr.String()))
	}
}
