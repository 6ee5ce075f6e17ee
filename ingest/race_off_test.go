//go:build !race

package ingest

// raceOn reports whether the tests run under the race detector, where
// long single-goroutine property loops cost many times as much and find
// no race: they run fewer iterations there.
const raceOn = false
