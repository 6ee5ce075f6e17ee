//go:build !unix

package main

import (
	"context"
	"os/exec"
)

// interruptible leaves cmd as exec.CommandContext makes it: an interrupt
// kills it (there is no SIGINT to send).
func interruptible(context.Context, *exec.Cmd) {}

// killTree kills cmd (what it started is left to the system).
func killTree(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
