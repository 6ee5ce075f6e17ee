//go:build !unix

package main

import (
	"context"
	"os/exec"
)

// adoptOrphans does nothing: what CMD leaves is the system's.
func adoptOrphans() (undo func()) { return func() {} }

// endOrphans has no orphans to end (see adoptOrphans).
func endOrphans(context.Context, *exec.Cmd) {}

// interruptible leaves cmd as exec.CommandContext makes it: an interrupt
// kills it (there is no SIGINT to send).
func interruptible(context.Context, *exec.Cmd) {}

// killTree kills cmd (what it started is left to the system).
func killTree(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
