//go:build !unix

package main

import "os/exec"

// inGroup leaves cmd as exec starts it: an interrupt kills the command
// (exec.CommandContext's default), not what it started.
func inGroup(*exec.Cmd) {}

// killGroup kills a started command that is still running.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
