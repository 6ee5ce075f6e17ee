//go:build unix

package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"testing"
)

// The first signal ends the context, its cause naming it (a SIGINT reads
// as Ctrl-C), and nothing else; once released, the next one is handed to
// end, with whether it was ignored when catching began. The process's own
// handler does it, not the disposition it started with (which may be to
// ignore SIGINT).
func TestCatchSignalsEndsOnTheSignalAfterRelease(t *testing.T) {
	type ended struct {
		sig     os.Signal
		ignored bool
	}
	got := make(chan ended, 2)
	ctx, release, stop := catchSignals(func(s os.Signal, ignored bool) { got <- ended{s, ignored} })
	defer stop()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done()
	if !byCtrlC(ctx) {
		t.Errorf("a SIGINT does not read as Ctrl-C: cause %v", context.Cause(ctx))
	}
	release()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if e := <-got; e.sig != syscall.SIGTERM || e.ignored {
		t.Errorf("ended by %v (ignored at start: %v) after a released SIGTERM, want SIGTERM, not ignored", e.sig, e.ignored)
	}
	select {
	case e := <-got:
		t.Errorf("the first signal ended it too (%v)", e.sig)
	default:
	}
}

// A SIGINT ignored when catching began (a background job's) is said so to
// end, which then exits 128+n rather than re-raise a signal that would be
// ignored again.
func TestCatchSignalsTellsASignalIgnoredAtStart(t *testing.T) {
	signal.Ignore(syscall.SIGINT)
	t.Cleanup(func() { signal.Reset(syscall.SIGINT) })
	got := make(chan bool, 2)
	_, release, stop := catchSignals(func(s os.Signal, ignored bool) { got <- ignored })
	defer stop()
	release()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if !<-got {
		t.Error("a SIGINT ignored at start was not said so: end would re-raise a signal that is ignored again")
	}
}
