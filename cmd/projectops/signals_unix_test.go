//go:build unix

package main

import (
	"context"
	"syscall"
	"testing"
)

// The first signal ends the context, its cause naming it (a SIGINT reads
// as Ctrl-C), and nothing else; once released, the next one exits with
// 128+n. The process's own handler does it, not the disposition it started
// with (which may be to ignore SIGINT).
func TestCatchSignalsExitsOnTheSignalAfterRelease(t *testing.T) {
	exited := make(chan int, 2)
	ctx, release, stop := catchSignals(func(code int) { exited <- code })
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
	if code := <-exited; code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit %d after a released signal, want %d", code, 128+int(syscall.SIGTERM))
	}
	select {
	case code := <-exited:
		t.Errorf("the first signal exited too (%d)", code)
	default:
	}
}
