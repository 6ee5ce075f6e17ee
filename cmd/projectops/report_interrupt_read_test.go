package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Interrupted, report goes on reading what go test still writes (it
// reports the interrupted tests as it exits) and sends it: the run fails
// as go test said, and the exit status is the tests'. Reading stopped at
// the interrupt, dropped the input read so far and exited 2.
func TestReportStdinInterruptKeepsTheFailure(t *testing.T) {
	reportEnv(t)
	pr, pw := io.Pipe()
	old := stdin
	stdin = pr
	defer func() { stdin = old }()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_, _ = io.WriteString(pw, `{"Action":"start","Package":"example.com/p"}
{"Action":"run","Package":"example.com/p","Test":"TestDone"}
{"Action":"pass","Package":"example.com/p","Test":"TestDone","Elapsed":0.01}
{"Action":"run","Package":"example.com/p","Test":"TestSlow"}
`)
		time.Sleep(300 * time.Millisecond)
		cancel() // SIGINT reaches report, and go test, which reports and exits
		_, _ = io.WriteString(pw, `{"Action":"output","Package":"example.com/p","Test":"TestSlow","Output":"signal: interrupt\n"}
{"Action":"fail","Package":"example.com/p","Test":"TestSlow","Elapsed":0.3}
{"Action":"fail","Package":"example.com/p","Elapsed":0.3}
`)
		pw.Close()
	}()
	var o, e bytes.Buffer
	code := run(ctx, []string{"report", "-q", "--external-run-id", "stdin-intr"}, &o, &e)
	if code != 1 || !strings.Contains(e.String(), "result failed") {
		t.Errorf("exit %d, want 1 and a failed run (TestSlow failed, as go test said); stderr %q", code, e.String())
	}
}

// Interrupted, report -- CMD stops the command and exits with its status;
// what it wrote is reported, the test left running as failed.
func TestReportCommandInterruptKeepsCommandStatus(t *testing.T) {
	reportEnv(t)
	dir := t.TempDir()
	events := `{"Action":"start","Package":"example.com/p"}
{"Action":"run","Package":"example.com/p","Test":"TestDone"}
{"Action":"pass","Package":"example.com/p","Test":"TestDone","Elapsed":0.01}
{"Action":"run","Package":"example.com/p","Test":"TestSlow"}
`
	if err := os.WriteFile(filepath.Join(dir, "events"), []byte(events), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(500*time.Millisecond, cancel) // Ctrl-C while TestSlow runs
	var o, e bytes.Buffer
	code := run(ctx, []string{"report", "-q", "--external-run-id", "cmd-intr", "--", "sh", "-c",
		"cat " + filepath.Join(dir, "events") + "; exec sleep 30"}, &o, &e)
	if code != 128+9 || strings.Contains(e.String(), "context canceled") || strings.Contains(e.String(), "result passed") {
		t.Errorf("exit %d, want the command's own status (137), no reading error and no passed run; stderr %q", code, e.String())
	}
}

// Reading after an interrupt and sending what was read each get the grace:
// a stream that goes on writing uses up the reading's, and the close still
// has its own (it had none left: nothing was sent, exit 2).
func TestReportInterruptLongReadStillSends(t *testing.T) {
	reportEnv(t)
	grace := reportInterruptGrace
	reportInterruptGrace = time.Second
	defer func() { reportInterruptGrace = grace }()
	pr, pw := io.Pipe()
	defer pw.Close()
	old := stdin
	stdin = pr
	defer func() { stdin = old }()
	stopWriting := make(chan struct{})
	defer close(stopWriting)
	go func() {
		_, _ = io.WriteString(pw, `{"Action":"start","Package":"example.com/p"}`+"\n")
		for i := 0; ; i++ {
			if i >= 1000 { // past report's look at the first 64 KiB: a live stream
				select {
				case <-stopWriting:
					return
				case <-time.After(20 * time.Millisecond):
				}
			}
			if _, err := fmt.Fprintf(pw, `{"Action":"run","Package":"example.com/p","Test":"T%d"}
{"Action":"pass","Package":"example.com/p","Test":"T%d","Elapsed":0.01}
`, i, i); err != nil {
				return
			}
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(300*time.Millisecond, cancel)
	var o, e bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"report", "-q", "--external-run-id", "long-read"}, &o, &e) }()
	var code int
	select {
	case code = <-done:
	case <-time.After(8 * time.Second):
		t.Fatal("report still running 8 s after the interrupt with a 1 s grace")
	}
	if code != 0 || strings.Contains(e.String(), "NOT reported") || strings.Contains(e.String(), "stopped waiting for the service") {
		t.Errorf("exit %d: what was read was not sent; stderr %q", code, e.String())
	}
}
