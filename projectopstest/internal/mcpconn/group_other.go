//go:build !unix

package mcpconn

import "os/exec"

// ownGroup does nothing where there are no process groups: a wrapper's
// children may outlive it there.
func ownGroup(*exec.Cmd) {}

// killGroup ends cmd's process itself: without process groups, that is
// all that can be ended with it.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
