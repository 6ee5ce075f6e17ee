//go:build unix

package main

import (
	"context"
	"os"
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

// A SIGINT ignored when catching began is tested in a child process
// started with it ignored (TestReportSecondInterruptEndsItWhenSigintWasIgnored):
// ignoring it here would outlive the test, as signal.Notify takes the
// ignored handling as the one Reset restores, and every child started
// later would inherit it.
