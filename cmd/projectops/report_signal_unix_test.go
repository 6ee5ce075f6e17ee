//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

const reportSignalChild = "PROJECTOPS_CLI_REPORT_SIGNAL_CHILD"

// report reading stdin that stays open and idle after an interrupt (the
// read cannot be cut short) ends at a second interrupt: report alone lets
// the signal after the first end the process (tunnel and serve finish
// their cleanup).
// So it does while it still looks for the first event (build noise only).
func TestReportSecondInterruptEndsIdleRead(t *testing.T) {
	if id := os.Getenv(reportSignalChild); id != "" {
		os.Args = []string{"projectops", "report", "-q", "--external-run-id", id}
		main()
		return
	}
	reportEnv(t)
	events, err := os.ReadFile("../../ingest/testdata/gotest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for name, in := range map[string][]byte{
		"reading":    events,
		"first look": []byte("go: downloading example.com/m v1.0.0\n"),
	} {
		t.Run(name, func(t *testing.T) {
			cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestReportSecondInterruptEndsIdleRead$")
			cmd.Env = append(os.Environ(), reportSignalChild+"=sig-"+name[:4])
			w, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			_, _ = w.Write(in) // and stdin stays open and idle
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			time.Sleep(time.Second)
			_ = cmd.Process.Signal(os.Interrupt)
			time.Sleep(500 * time.Millisecond)
			_ = cmd.Process.Signal(os.Interrupt)
			select {
			case <-exited:
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				<-exited
				t.Fatalf("report still running 10 s after two interrupts (stdin open and idle); stderr %q", stderr.String())
			}
		})
	}
}

// CMD ended by a signal is said on lines that name "projectops report"
// (the signal, and that its output held no events), as every error line
// names its command.
func TestReportCommandSignalLineNamesCommand(t *testing.T) {
	reportEnv(t)
	devnullStdin(t)
	code, _, errOut := runReportCLI(t, "", "report", "-q", "--external-run-id", "sig-name", "--", "sh", "-c", "kill -TERM $$")
	if code != 128+15 {
		t.Fatalf("exit %d, want 143 (128+SIGTERM); stderr %q", code, errOut)
	}
	assertLinesNamed(t, errOut, "signal: terminated", "projectops report: sh: ")
	for _, l := range strings.Split(strings.TrimSpace(errOut), "\n") {
		if !strings.HasPrefix(l, "projectops report: ") {
			t.Errorf("stderr line does not name the command: %q", l)
		}
	}
}

const reportIgnoredSigintChild = "PROJECTOPS_CLI_REPORT_IGNORED_SIGINT_CHILD"

// report started with SIGINT ignored (a background job of a
// non-interactive shell: "go test -json ./... | projectops report &") still
// ends at a second interrupt, as docs/cli.md says: its own handler does it,
// since stopping the notification would restore the ignored disposition
// and leave report waiting on its open stdin for good.
func TestReportSecondInterruptEndsItWhenSigintWasIgnored(t *testing.T) {
	if os.Getenv(reportIgnoredSigintChild) != "" {
		os.Args = []string{"projectops", "report", "-q", "--spool", os.Getenv(reportIgnoredSigintChild)}
		main()
		return
	}
	t.Setenv("PROJECTOPS_API_KEY", projectopstest.DemoOwnerKey)
	t.Setenv("PROJECTOPS_PROJECT", "prj_demo")
	t.Setenv("PROJECTOPS_BASE_URL", "http://127.0.0.1:1/api/v1")
	// sh ignores SIGINT, then execs the test binary, which inherits SIG_IGN.
	cmd := exec.Command("/bin/sh", "-c", `trap '' INT; exec "$0" "$@"`, os.Args[0], "-test.run=^TestReportSecondInterruptEndsItWhenSigintWasIgnored$")
	cmd.Env = append(os.Environ(), reportIgnoredSigintChild+"="+t.TempDir())
	stdin, err := cmd.StdinPipe() // input that stays open
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err = cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	_, _ = io.WriteString(stdin, `{"Action":"run","Package":"example.com/p","Test":"TestSlow"}`+"\n")
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	waitFor := func(sub string, d time.Duration) bool {
		deadline := time.After(d)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					return false
				}
				if strings.Contains(l, sub) {
					return true
				}
			case <-deadline:
				return false
			}
		}
	}
	// Interrupt until report says it was interrupted (its handler is then
	// installed and the read of stdin is under way).
	said := false
	for i := 0; i < 20 && !said; i++ {
		time.Sleep(200 * time.Millisecond)
		_ = cmd.Process.Signal(os.Interrupt)
		said = waitFor("interrupt again to stop at once", 300*time.Millisecond)
	}
	if !said {
		t.Fatal("report never acknowledged the first interrupt")
	}
	time.Sleep(200 * time.Millisecond)
	_ = cmd.Process.Signal(os.Interrupt) // the second one
	done := make(chan error, 1)
	go func() {
		for range lines {
		}
		done <- nil
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a second interrupt did not end report (it keeps waiting on stdin): SIGINT was ignored when it started, and stopping the notification restored SIG_IGN")
	}
	err = cmd.Wait()
	if ee, ok := errors.AsType[*exec.ExitError](err); !ok || ee.ExitCode() != 128+2 {
		t.Errorf("after a second interrupt: %v, want exit status 130 (128+SIGINT)", err)
	}
}
