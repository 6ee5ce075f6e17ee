//go:build unix

package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

// signalChild is set in the child process of TestSecondInterruptEndsReport.
const signalChild = "PROJECTOPS_CLI_SIGNAL_CHILD"

// The first interrupt lets report send what it read (for a bounded time);
// a second one ends the process at once, however stalled the service.
func TestSecondInterruptEndsReport(t *testing.T) {
	if os.Getenv(signalChild) != "" {
		os.Args = []string{"projectops", "report", "-q", "--external-run-id", "sig-1"}
		main() // exits
		return
	}
	srv := reportEnv(t) // the child inherits the environment
	srv.SetFault(reportRoute, projectopstest.Fault{Latency: 20 * time.Second})
	in, err := os.ReadFile("../../ingest/testdata/gotest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestSecondInterruptEndsReport$")
	cmd.Env = append(os.Environ(), signalChild+"=1")
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// report looks at its first 64 KiB before reading on: pad past it, then
	// wait for the marker to be passed through (the child catches signals
	// by then).
	go func() {
		_, _ = w.Write(in)
		_, _ = w.Write(bytes.Repeat([]byte("padding line\n"), 70<<10/13))
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
		if line == "ready-marker\n" {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, rd) }()
	exited := make(chan error, 1)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	_ = w.Close() // go test ends with the interrupt: report now closes, stalled
	time.Sleep(500 * time.Millisecond)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	go func() { exited <- cmd.Wait() }()
	select {
	case err = <-exited:
	case <-time.After(5 * time.Second): // the close alone may take 10 s
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("the second interrupt did not end report; stderr %q", stderr.String())
	}
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if err == nil || !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("child ended with %v, want killed by SIGINT; stderr %q", err, stderr.String())
	}
}
