//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

const reportSignalChild = "PROJECTOPS_CLI_REPORT_SIGNAL_CHILD"

// report reading stdin that stays open and idle after an interrupt (the
// read cannot be cut short) ends at a second interrupt: report alone stops
// catching signals after the first (tunnel and serve finish their cleanup).
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
