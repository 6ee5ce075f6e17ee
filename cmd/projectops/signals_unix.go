//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// endBySignal ends the process at a signal received after catchSignals'
// release: it dies of that signal, so a calling shell sees what a Ctrl-C
// did (bash stops a script only when its foreground child died of
// SIGINT, not when it exited 130). A signal ignored when the process
// started (a background job's SIGINT) is not re-raised, which would be
// ignored again: the process exits 128+n, the status a shell gives it.
func endBySignal(s os.Signal, ignoredAtStart bool) {
	if n, ok := s.(syscall.Signal); ok && !ignoredAtStart {
		signal.Reset(s)
		_ = syscall.Kill(os.Getpid(), n)
		// The signal is delivered asynchronously; should it not end the
		// process, the exit below still does.
		time.Sleep(time.Second)
	}
	os.Exit(signalStatus(s))
}
