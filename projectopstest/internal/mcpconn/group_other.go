//go:build !unix

package mcpconn

import "os/exec"

// ownGroup does nothing where there are no process groups: a wrapper's
// children may outlive it there.
func ownGroup(*exec.Cmd) {}

func killGroup(*exec.Cmd) {}

func killGroupOf(int) {}
