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
	setStdin(t, pr)
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
	// The interrupt is acknowledged at once, with how to stop sooner.
	if !strings.Contains(e.String(), "interrupt again to stop at once") {
		t.Errorf("stderr %q does not acknowledge the interrupt", e.String())
	}
}

// Interrupted, report -- CMD stops the command and exits with its status;
// what it wrote is reported, the test left running as failed.
func TestReportCommandInterruptKeepsCommandStatus(t *testing.T) {
	reportEnv(t)
	cat := catEvents(t, doneEvents+`{"Action":"run","Package":"example.com/p","Test":"TestSlow"}
`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(time.Second, cancel) // Ctrl-C while TestSlow runs (the command started, on a loaded machine too)
	var o, e bytes.Buffer
	code := run(ctx, []string{"report", "-q", "--external-run-id", "cmd-intr", "--", "sh", "-c",
		cat + "; exec sleep 30"}, &o, &e)
	if code != 128+2 || strings.Contains(e.String(), "context canceled") || strings.Contains(e.String(), "result passed") {
		t.Errorf("exit %d, want the command's own status (130: SIGINT, as from Ctrl-C), no reading error and no passed run; stderr %q", code, e.String())
	}
}

// Reading after an interrupt and sending what was read each get the grace:
// a stream that goes on writing uses up the reading's, and the close still
// has its own (it had none left: nothing was sent, exit 2). A read cut
// before the tests ended fails the gate: a test still running never
// reported (it exited 0 with a passed run).
func TestReportInterruptLongReadStillSends(t *testing.T) {
	reportEnv(t)
	setGrace(t, time.Second)
	liveStdin(t, "pass", false)
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
	if strings.Contains(e.String(), "NOT reported") || strings.Contains(e.String(), "stopped waiting for the service") {
		t.Errorf("exit %d: what was read was not sent; stderr %q", code, e.String())
	}
	if code != 1 { // the tests had not ended: the gate cannot pass
		t.Errorf("exit %d, want 1 for a read cut before the tests ended; stderr %q", code, e.String())
	}
}

// A test still running when reading is cut is not a pass.
func TestReportCutWhileTestRunningIsNotAPass(t *testing.T) {
	reportEnv(t)
	setGrace(t, 500*time.Millisecond)
	liveStdin(t, "pass", true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(300*time.Millisecond, cancel)
	var o, e bytes.Buffer
	if code := run(ctx, []string{"report", "-q", "--external-run-id", "cut-running"}, &o, &e); code != 1 {
		t.Errorf("exit %d, want 1: an interrupted stream cut while TestSlow ran is not a pass; stderr %q", code, e.String())
	}
}

// report -- CMD, interrupted, waits no longer than the grace for output a
// child of the killed command holds open, idle or writing, and exits with
// the command's status. Run as main runs it: stdin and stderr are files,
// handed to the command as they are.
func TestReportCommandReadBoundedAfterInterrupt(t *testing.T) {
	reportEnv(t)
	setGrace(t, 500*time.Millisecond)
	dir := t.TempDir()
	cat := catEvents(t, doneEvents)
	devnullStdin(t)
	for name, script := range map[string]string{
		"idle child":    cat + "; sleep 8 & wait",
		"writing child": cat + `; (i=0; while [ $i -lt 120 ]; do echo '{"Action":"output","Package":"example.com/p","Output":"x\n"}'; sleep 0.05; i=$((i+1)); done) & wait`,
	} {
		ef, err := os.Create(filepath.Join(dir, "stderr-"+strings.ReplaceAll(name, " ", "-")))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(time.Second, cancel) // after the command started, on a loaded machine too
		var o bytes.Buffer
		done := make(chan int, 1)
		go func() {
			done <- run(ctx, []string{"report", "-q", "--external-run-id", "cmd-" + name[:4], "--", "sh", "-c", script}, &o, ef)
		}()
		select {
		case code := <-done:
			b, _ := os.ReadFile(ef.Name())
			if code != 128+2 || strings.Contains(string(b), "reading go test") {
				t.Errorf("%s: exit %d, want the command's 130 (SIGINT) and no reading error; stderr %q", name, code, b)
			}
		case <-time.After(6 * time.Second): // the idle child holds the output 8 s: unbounded, it would run past this
			t.Errorf("%s: report -- CMD still running 6 s on, with a 500 ms grace for reading and as long for sending", name)
			<-done
		}
		cancel()
		ef.Close()
	}
}

// A read cut while a test runs fails the gate even when every test that
// ended was skipped (no run was made).
func TestReportCutAfterOnlySkipsIsNotAPass(t *testing.T) {
	reportEnv(t)
	setGrace(t, 500*time.Millisecond)
	liveStdin(t, "skip", true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(300*time.Millisecond, cancel)
	var o, e bytes.Buffer
	if code := run(ctx, []string{"report", "-q", "--external-run-id", "cut-skips"}, &o, &e); code != 1 {
		t.Errorf("exit %d, want 1: the read was cut while TestSlow ran; stderr %q", code, e.String())
	}
}

// Not interrupted, a command that exits 0 while a background child of it
// still holds stderr exits 0.
func TestReportCommandChildHoldingStderr(t *testing.T) {
	reportEnv(t)
	setGrace(t, 300*time.Millisecond) // shorter than the child: the grace is for interrupts only
	cat := catEvents(t, doneEvents+`{"Action":"pass","Package":"example.com/p","Elapsed":0.01}
`)
	var o, e bytes.Buffer
	if code := run(context.Background(), []string{"report", "-q", "--external-run-id", "normal-stderr", "--", "sh", "-c",
		cat + "; sleep 1 >/dev/null &"}, &o, &e); code != 0 {
		t.Errorf("exit %d, want 0 (the command exited 0, its test passed); stderr %q", code, e.String())
	}
}

// A command that had exited 0 on its own (a background child still
// holding its output) when the interrupt came keeps its status: Wait
// reports the context then, which was taken for a reading failure (exit 2).
func TestReportCommandExitedBeforeInterrupt(t *testing.T) {
	reportEnv(t)
	setGrace(t, 3*time.Second)
	dir := t.TempDir()
	cat := catEvents(t, doneEvents+`{"Action":"pass","Package":"example.com/p","Elapsed":0.01}
`)
	ef, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	devnullStdin(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(time.Second, cancel) // after sh exited, on a loaded machine too
	var o bytes.Buffer
	code := run(ctx, []string{"report", "-q", "--external-run-id", "exited-zero", "--", "sh", "-c",
		cat + "; sleep 3 &"}, &o, ef)
	b, _ := os.ReadFile(ef.Name())
	if code != 0 || strings.Contains(string(b), "context canceled") {
		t.Errorf("exit %d, want 0 (the command exited 0 before the interrupt, its test passed); stderr %q", code, b)
	}
}

// A live stream is read from its first event on: a failing test shows as
// it ends, before 64 KiB have arrived (report waited for 64 KiB or the end
// of the input before it read anything).
func TestReportReadsALiveStreamAtOnce(t *testing.T) {
	reportEnv(t)
	pr, pw := io.Pipe()
	setStdin(t, pr)
	var o, e syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(context.Background(), []string{"report", "--external-run-id", "live"}, &o, &e) }()
	_, _ = io.WriteString(pw, `{"Action":"start","Package":"example.com/p"}
{"Action":"run","Package":"example.com/p","Test":"TestBroken"}
{"Action":"output","Package":"example.com/p","Test":"TestBroken","Output":"    p_test.go:9: broken\n"}
{"Action":"fail","Package":"example.com/p","Test":"TestBroken","Elapsed":0.01}
`)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(o.String(), "--- FAIL: TestBroken") {
		if time.Now().After(deadline) {
			pw.Close()
			<-done
			t.Fatalf("the failing test was not shown while the stream stayed open; stdout %q", o.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	pw.Close()
	if code := <-done; code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
}

// setGrace sets reportInterruptGrace for the test.
func setGrace(t *testing.T, d time.Duration) {
	old := reportInterruptGrace
	reportInterruptGrace = d
	t.Cleanup(func() { reportInterruptGrace = old })
}

// setStdin makes r report's stdin for the test.
func setStdin(t *testing.T, r io.Reader) {
	old := stdin
	stdin = r
	t.Cleanup(func() { stdin = old })
}

// devnullStdin makes /dev/null report's stdin: a file, as in main, which a
// command after -- gets as it is.
func devnullStdin(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	setStdin(t, f)
}

// liveStdin feeds report's stdin a go test -json stream that stays open
// until the test ends: a start and 1000 tests ending with action (past
// report's first look, 64 KiB at most), then every 20 ms another such
// test or, with running, a line of output from a TestSlow that never ends.
func liveStdin(t *testing.T, action string, running bool) {
	pr, pw := io.Pipe()
	setStdin(t, pr)
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop); pw.Close() })
	test := func(i int) error {
		_, err := fmt.Fprintf(pw, `{"Action":"run","Package":"example.com/p","Test":"T%d"}
{"Action":"%s","Package":"example.com/p","Test":"T%d","Elapsed":0.01}
`, i, action, i)
		return err
	}
	go func() {
		_, _ = io.WriteString(pw, `{"Action":"start","Package":"example.com/p"}`+"\n")
		for i := range 1000 {
			if test(i) != nil {
				return
			}
		}
		if running {
			_, _ = io.WriteString(pw, `{"Action":"run","Package":"example.com/p","Test":"TestSlow"}`+"\n")
		}
		for i := 1000; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			var err error
			if running {
				_, err = io.WriteString(pw, `{"Action":"output","Package":"example.com/p","Test":"TestSlow","Output":"still going\n"}`+"\n")
			} else {
				err = test(i)
			}
			if err != nil {
				return
			}
		}
	}()
}

// doneEvents are go test -json's first events of a package whose TestDone
// passed.
const doneEvents = `{"Action":"start","Package":"example.com/p"}
{"Action":"run","Package":"example.com/p","Test":"TestDone"}
{"Action":"pass","Package":"example.com/p","Test":"TestDone","Elapsed":0.01}
`

// catEvents writes events to a file and returns the shell command that
// prints them, as go test -json would.
func catEvents(t *testing.T, events string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "events")
	if err := os.WriteFile(path, []byte(events), 0o600); err != nil {
		t.Fatal(err)
	}
	return "cat " + path
}
