//go:build !unix

package main

import (
	"context"
	"os/exec"
)

// endOrphans has no orphans to end (see orphans).
func endOrphans(context.Context, *exec.Cmd, *orphans) {}

// interruptible leaves cmd as exec.CommandContext makes it: an interrupt
// kills it (there is no SIGINT to send).
func interruptible(context.Context, *exec.Cmd, *orphans) {}

// killTree kills cmd (what it started is left to the system).
func killTree(cmd *exec.Cmd, _ *orphans) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
