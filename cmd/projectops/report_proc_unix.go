//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// interruptible makes an interrupt reach cmd and what it started (where
// the system lists a process's children: Linux's /proc) as SIGINT, as
// Ctrl-C reaches a terminal's foreground job, so a shell's
// trap or a test's cleanup can still run and write; reading is cut and
// cmd killed at the grace (killTree). The whole tree: the go command waits
// out a SIGINT of its own for its test binaries, which a signal to it
// alone (CI's, timeout's) never reached, so the tests ran on to the kill.
// cmd stays in report's process group, so a terminal's signals and job
// control reach it as they would without report: when a Ctrl-C
// interrupted report as the terminal's foreground job, it has reached
// them all already, and a second SIGINT would cut their cleanup short.
// From then on, what the interrupt orphans of cmd's tree is report's (see
// orphans).
func interruptible(ctx context.Context, cmd *exec.Cmd, o *orphans) {
	cmd.Cancel = func() error {
		o.adopt(cmd.Process.Pid)
		if byCtrlC(ctx) && terminalForeground() {
			return nil
		}
		pids := jobDescendants(cmd.Process.Pid, o)
		err := cmd.Process.Signal(syscall.SIGINT)
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGINT)
		}
		return err
	}
}

// byCtrlC reports whether ctx ended for a SIGINT (the cause main's
// catchSignals gives it names the signal); a SIGTERM reached report alone. A
// SIGINT sent to report alone (kill -INT) while it is the foreground job
// cannot be told from the terminal's (Go does not expose si_code): CMD is
// then killed at the grace without a SIGINT of its own.
func byCtrlC(ctx context.Context) bool {
	s, ok := errors.AsType[signalReceived](context.Cause(ctx))
	return ok && s.sig == os.Interrupt
}

// terminalForeground reports whether this process's group is the
// foreground job of its controlling terminal.
func terminalForeground() bool {
	tty, err := os.Open("/dev/tty")
	if err != nil {
		return false // no controlling terminal: CI, a service
	}
	defer tty.Close()
	pgrp, err := unix.IoctlGetInt(int(tty.Fd()), unix.TIOCGPGRP)
	own, gerr := unix.Getpgid(0)
	return err == nil && gerr == nil && pgrp == own
}

// killTree kills cmd and, where the system lists a process's children
// (Linux's /proc), everything it started that is still in report's
// session: go test's test binaries do not end with the go command, and a
// SIGTERM to report alone never reached them. The session, not the job:
// a command may put its children in a group of their own (timeout, a
// shell with set -m) without them leaving; a daemon (setsid) has left.
// On Linux that includes what CMD's tree left behind when the interrupt
// ended its parent (a shell's background job), which report adopted (see
// orphans); what it kills of those is reaped, not left a zombie.
func killTree(cmd *exec.Cmd, o *orphans) {
	if cmd.Process == nil {
		return // not started
	}
	pid := cmd.Process.Pid
	var pids []int
	if !errors.Is(cmd.Process.Signal(syscall.Signal(0)), os.ErrProcessDone) {
		// Not waited for: its pid is still its own (a zombie at worst).
		pids = sessionDescendants(pid)
		_ = cmd.Process.Kill()
	}
	pids = append(pids, orphansInSession(o)...)
	o.track(pids)
	for _, p := range pids {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
	o.reap(pids)
}

// endOrphans gives what CMD left behind after an interrupt (adopted
// orphans, see orphans) the rest of the grace, as CMD had, then kills
// it: CMD having ended, reading no longer waits on them when they do not
// hold its output. What ended by itself is reaped.
func endOrphans(readCtx context.Context, cmd *exec.Cmd, o *orphans) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for live(orphansInSession(o)) {
		select {
		case <-readCtx.Done():
			killTree(cmd, o)
			return
		case <-tick.C:
		}
	}
	ended := orphansInSession(o)
	o.track(ended)
	o.reap(ended)
}

// live reports whether any of pids runs (a zombie has ended).
func live(pids []int) bool {
	for _, p := range pids {
		if f := statFields(p); len(f) > 0 && f[0] != "Z" {
			return true
		}
	}
	return false
}

// statFields is /proc/PID/stat's fields from the third (state) on: the
// command name before them, in parentheses, may hold spaces.
func statFields(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	return strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
}

// jobDescendants is descendants still in report's process group, as a
// terminal's signals reach them, with the orphans report adopted: a
// process that left the job (setsid: a daemon meant to outlive the run)
// is spared.
func jobDescendants(pid int, o *orphans) []int {
	return sharing(append(descendants(pid), orphanTree(o)...), unix.Getpgid)
}

// sessionDescendants is descendants still in report's session.
func sessionDescendants(pid int) []int { return sharing(descendants(pid), unix.Getsid) }

// orphansInSession is orphanTree still in report's session, as killTree
// reaches CMD's own tree.
func orphansInSession(o *orphans) []int { return sharing(orphanTree(o), unix.Getsid) }

// orphanTree is what report adopted of CMD's tree and their descendants.
func orphanTree(o *orphans) []int {
	var out []int
	for _, p := range o.adopted() {
		out = append(append(out, p), descendants(p)...)
	}
	return out
}

// sharing is the pids whose id (process group or session) is report's own.
func sharing(pids []int, id func(int) (int, error)) []int {
	own, err := id(0)
	if err != nil {
		return nil
	}
	var out []int
	for _, p := range pids {
		if v, err := id(p); err == nil && v == own {
			out = append(out, p)
		}
	}
	return out
}

// descendants lists pid's descendants from /proc, nearest first; none
// where /proc does not list children.
func descendants(pid int) []int {
	var out []int
	for queue := []int{pid}; len(queue) > 0; queue = queue[1:] {
		c := children(queue[0])
		out = append(out, c...)
		queue = append(queue, c...)
	}
	return out
}

// children lists pid's children from /proc (none where it does not list
// them).
func children(pid int) []int {
	var out []int
	tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	for _, task := range tasks {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + task.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}
