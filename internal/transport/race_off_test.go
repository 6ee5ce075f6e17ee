//go:build !race

package transport

// raceOn reports whether the tests run under the race detector, whose
// sync.Pool drops a random share of what is put back: allocation counts
// there carry noise that no number of measurements fully removes.
const raceOn = false
