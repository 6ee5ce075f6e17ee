//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// inGroup runs cmd in a process group of its own, so that an interrupt
// reaches it and everything it started (go test's test binaries) as
// SIGINT, as Ctrl-C in a terminal does: they can still write what they
// know. killGroup ends whatever of the group is left.
func inGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }
}

// killGroup kills what is left of a started command's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
