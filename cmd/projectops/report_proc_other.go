//go:build !unix

package main

import "os/exec"

// interruptible leaves cmd as exec.CommandContext makes it: an interrupt
// kills it (there is no SIGINT to send).
func interruptible(*exec.Cmd) {}
