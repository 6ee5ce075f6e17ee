//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Interrupted, report -- CMD sends CMD SIGINT, as Ctrl-C does: a command
// that handles it can still write what it knows, and its status is the
// one report exits with.
func TestReportInterruptIsCatchable(t *testing.T) {
	reportEnv(t)
	setGrace(t, 2*time.Second)
	devnullStdin(t)
	marker := filepath.Join(t.TempDir(), "trapped")
	script := `trap 'echo stopped > ` + marker + `; exit 3' INT TERM
echo '{"Action":"start","Package":"example.com/p"}'
echo '{"Action":"run","Package":"example.com/p","Test":"TestSlow"}'
while :; do sleep 0.1; done`
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(500*time.Millisecond, cancel)
	var o, e bytes.Buffer
	code := run(ctx, []string{"report", "-q", "--external-run-id", "trap", "--", "sh", "-c", script}, &o, &e)
	if _, err := os.Stat(marker); err != nil || code != 3 {
		t.Errorf("exit %d (want the command's 3): its INT handler did not run (%v); stderr %q", code, err, e.String())
	}
}

// report catches SIGPIPE for its own writes; CMD must not inherit it
// ignored (an ignored signal stays ignored across exec): a test script's
// "yes | head -n1" would print "Broken pipe".
func TestReportCommandGetsDefaultSIGPIPE(t *testing.T) {
	reportEnv(t)
	devnullStdin(t)
	var o, e bytes.Buffer
	run(t.Context(), []string{"report", "-q", "--external-run-id", "sigpipe", "--", "sh", "-c",
		`yes | head -n 1 >/dev/null`}, &o, &e)
	if strings.Contains(e.String(), "Broken pipe") {
		t.Errorf("CMD ran with SIGPIPE ignored; stderr %q", e.String())
	}
}

const reportPipeChild = "PROJECTOPS_CLI_REPORT_PIPE_CHILD"

// reportIntoClosedPipe runs "projectops report args..." as a process (a
// closed pipe's SIGPIPE only kills a real one) with in on stdin and a
// stdout whose reader reads keep bytes (none: closed at once) and goes
// away; it returns the exit code (-1 when a signal ended it) and stderr.
func reportIntoClosedPipe(t *testing.T, test string, in []byte, keep int, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), reportPipeChild+"="+strings.Join(args, "\x1f"))
	cmd.Stdin = bytes.NewReader(in)
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
	if keep > 0 {
		_, _ = r.Read(make([]byte, keep))
	}
	r.Close()
	code := 0
	if ee, ok := errors.AsType[*exec.ExitError](cmd.Wait()); ok {
		code = ee.ExitCode()
	}
	return code, stderr.String()
}

// reportChild runs report in the child process reportIntoClosedPipe starts.
func reportChild() bool {
	args := os.Getenv(reportPipeChild)
	if args == "" {
		return false
	}
	os.Args = append([]string{"projectops"}, strings.Split(args, "\x1f")...)
	main()
	return true
}

// "report < results | head": the reader going away does not kill report
// with SIGPIPE; the results are sent and the exit status is the tests'.
func TestReportIntoClosedPipeStillReports(t *testing.T) {
	if reportChild() {
		return
	}
	srv := reportEnv(t)
	t.Setenv("PROJECTOPS_SPOOL_DIR", t.TempDir())
	in, err := os.ReadFile("../../ingest/testdata/gotest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	code, stderr := reportIntoClosedPipe(t, "TestReportIntoClosedPipeStillReports", bytes.Repeat(in, 100), 64, // head -c 64
		"report", "--external-run-id", "head-1")
	if runs := srv.IngestedRuns(""); len(runs) != 1 || code != 1 {
		t.Fatalf("report | head: exit %d (want the tests' 1), %d runs ingested (want 1); stderr %q",
			code, len(runs), strings.TrimSpace(stderr))
	}
}

// "report --json < results | (closed)": a reader that went away stops the
// output, not the report: the run is sent, the summary line (where the run
// went) is on stderr, and the exit status is the tests' (1), with no
// write error said.
func TestReportJSONIntoClosedPipe(t *testing.T) {
	if reportChild() {
		return
	}
	srv := reportEnv(t)
	in, err := os.ReadFile("../../ingest/testdata/gotest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	code, stderr := reportIntoClosedPipe(t, "TestReportJSONIntoClosedPipe", in, 0, "report", "--json", "--external-run-id", "head-json")
	if runs := srv.IngestedRuns(""); len(runs) != 1 || code != 1 || !strings.Contains(stderr, "12 passed, 10 failed") ||
		strings.Contains(stderr, "broken pipe") {
		t.Errorf("report --json | (closed): exit %d, %d runs; stderr %q; want 1, the run, the summary line and no write error",
			code, len(runs), stderr)
	}
}

// Under --json the summary object is the output: one that a full disk
// lost (not a reader that went away) fails the command, exit 2.
func TestReportJSONToAFullDiskFails(t *testing.T) {
	srv := reportEnv(t)
	in, err := os.ReadFile("../../ingest/testdata/gotest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	setStdin(t, bytes.NewReader(in))
	var e bytes.Buffer
	code := run(t.Context(), []string{"report", "--json", "--external-run-id", "enospc-json"}, enospcWriter{}, &e)
	if code != 2 || !strings.Contains(e.String(), "projectops report: no space left on device") || len(srv.IngestedRuns("")) != 1 {
		t.Errorf("report --json with stdout on a full disk: exit %d, stderr %q; want 2, the failure said, the run sent", code, e.String())
	}
}

type enospcWriter struct{}

func (enospcWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// The tests' text that cannot be written (a full disk, not a reader that
// went away) is said once on stderr; the report and its status stand.
func TestReportTextToAFullDiskIsSaid(t *testing.T) {
	srv := reportEnv(t)
	in, err := os.ReadFile("../../ingest/testdata/gotest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	setStdin(t, bytes.NewReader(in))
	var e bytes.Buffer
	code := run(t.Context(), []string{"report", "--external-run-id", "enospc"}, enospcWriter{}, &e)
	if code != 1 || strings.Count(e.String(), "no space left on device") != 1 || len(srv.IngestedRuns("")) != 1 {
		t.Errorf("report with stdout on a full disk: exit %d, stderr %q; want 1, the failure said once, the run sent", code, e.String())
	}
}
