package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
)

// catchSignals returns a context that ends at the first SIGINT or SIGTERM
// (its cause a signalReceived naming which), so a command can finish
// cleanly, each within a bound (tunnel revokes its URL, serve drains).
// Later signals are caught too, so none of that is cut short, until
// release is called: then the next one is handed to end, with whether the
// process started with that signal ignored (endBySignal makes the process
// die of it, or exit 128+n when it was ignored). The handler stays
// installed for that: stopping it (signal.Stop) would restore the
// disposition the process started with, which for a background job of a
// non-interactive shell is "ignore SIGINT", and the second interrupt would
// then be lost. stop ends the catching.
func catchSignals(end func(s os.Signal, ignoredAtStart bool)) (ctx context.Context, release, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	caught := []os.Signal{os.Interrupt, syscall.SIGTERM}
	// Read before Notify, which replaces the disposition.
	ignored := make(map[os.Signal]bool, len(caught))
	for _, s := range caught {
		ignored[s] = signal.Ignored(s)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, caught...)
	var released atomic.Bool
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				if released.Load() {
					end(s, ignored[s])
				}
				cancel(signalReceived{s})
			case <-done:
				return
			}
		}
	}()
	stop = sync.OnceFunc(func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	})
	return ctx, func() { released.Store(true) }, stop
}

// signalReceived is the cause of the context catchSignals ends: which
// signal ended it (report tells Ctrl-C from a SIGTERM by it).
type signalReceived struct{ sig os.Signal }

func (e signalReceived) Error() string { return e.sig.String() + " signal received" }

// signalStatus is the exit status of a process the signal killed, as a
// shell reports it.
func signalStatus(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return exitError
}
