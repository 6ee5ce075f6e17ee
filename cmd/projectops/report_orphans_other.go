//go:build !linux

package main

// orphans adopts nothing where a process cannot adopt its descendants'
// orphans: what CMD leaves is the system's.
type orphans struct{}

// adopt does nothing (see orphans).
func (*orphans) adopt(int) {}

// release does nothing (see orphans).
func (*orphans) release() {}

// track does nothing (see orphans).
func (*orphans) track([]int) {}

// adopted is none (see orphans).
func (*orphans) adopted() []int { return nil }

// reap has nothing to reap (see orphans).
func (*orphans) reap([]int) {}
