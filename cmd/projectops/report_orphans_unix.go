//go:build unix && !linux

package main

// adoptOrphans does nothing where a process cannot adopt its
// descendants' orphans: they are left to the system.
func adoptOrphans() (undo func()) { return func() {} }

// adopted is none (see adoptOrphans).
func adopted(int) []int { return nil }

// reapOrphans has nothing to reap (see adoptOrphans).
func reapOrphans(int, []int) {}
