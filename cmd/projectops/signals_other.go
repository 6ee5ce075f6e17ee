//go:build !unix

package main

import "os"

// endBySignal ends the process at a signal received after catchSignals'
// release with the status a shell gives a process the signal killed
// (128+n): there is no re-raising a signal here.
func endBySignal(s os.Signal, _ bool) {
	os.Exit(signalStatus(s))
}
