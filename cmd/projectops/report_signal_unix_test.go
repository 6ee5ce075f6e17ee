//go:build unix

package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"
)

const reportSignalChild = "PROJECTOPS_CLI_REPORT_SIGNAL_CHILD"

// report reading stdin that stays open and idle after an interrupt (the
// read cannot be cut short) ends at a second interrupt: report alone stops
// catching signals after the first (tunnel and serve finish their cleanup).
func TestReportSecondInterruptEndsIdleRead(t *testing.T) {
	if os.Getenv(reportSignalChild) != "" {
		os.Args = []string{"projectops", "report", "-q", "--external-run-id", "sig-idle"}
		main()
		return
	}
	reportEnv(t)
	in, err := os.ReadFile("../../ingest/testdata/gotest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestReportSecondInterruptEndsIdleRead$")
	cmd.Env = append(os.Environ(), reportSignalChild+"=1")
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_, _ = w.Write(in)
		_, _ = w.Write(bytes.Repeat([]byte("padding line\n"), 70<<10/13)) // past report's 64 KiB look
		_, _ = w.Write([]byte("ready-marker\n"))
	}()
	rd := bufio.NewReader(out)
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("child ended before the marker: %v; stderr %q", err, stderr.String())
		}
		if line == "ready-marker\n" { // passed through: report is reading
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, rd) }()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	_ = cmd.Process.Signal(os.Interrupt) // stdin stays open and idle
	time.Sleep(500 * time.Millisecond)
	_ = cmd.Process.Signal(os.Interrupt)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("report still running 10 s after two interrupts (stdin open and idle); stderr %q", stderr.String())
	}
}

const reportPeekChild = "PROJECTOPS_CLI_REPORT_PEEK_CHILD"

// The same while report still waits for its first look at the input (up
// to 64 KiB or the end): a second interrupt ends it there too.
func TestReportSecondInterruptEndsIdleReadUnder64KiB(t *testing.T) {
	if os.Getenv(reportPeekChild) != "" {
		os.Args = []string{"projectops", "report", "-q", "--external-run-id", "sig-peek"}
		main()
		return
	}
	reportEnv(t)
	in, err := os.ReadFile("../../ingest/testdata/gotest.jsonl") // about 30 KiB
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestReportSecondInterruptEndsIdleReadUnder64KiB$")
	cmd.Env = append(os.Environ(), reportPeekChild+"=1")
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
		t.Fatalf("report still running 10 s after two interrupts (stdin open and idle, %d bytes written); stderr %q", len(in), stderr.String())
	}
}
