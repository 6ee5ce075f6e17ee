//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
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
