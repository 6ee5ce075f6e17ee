//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// interruptible makes an interrupt reach cmd as SIGINT, as Ctrl-C does, so
// a shell's trap or a test's cleanup can still run and write; reading is
// cut and cmd killed at the grace. cmd stays in report's process group, so
// a terminal's signals and job control reach it as they would without
// report (what cmd started gets them from the terminal; a SIGTERM to
// report alone reaches cmd only).
func interruptible(cmd *exec.Cmd) {
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGINT) }
}
