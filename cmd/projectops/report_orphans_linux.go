//go:build linux

package main

import (
	"os"
	"slices"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// adoptOrphans makes report a child subreaper until the returned func
// undoes it: a process of CMD's tree whose parent exits (a shell's
// background job, the shell gone) is reparented to report rather than to
// init, so an interrupt's SIGINT and the kill at the grace still find it,
// among report's own children (see adopted). Undone when CMD is done, so
// that later orphans (a test process runs report more than once) are not
// report's.
func adoptOrphans() (undo func()) {
	var was int32
	if unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&was)), 0, 0, 0) != nil || was != 0 {
		return func() {} // unknown, or set by someone else: theirs to undo
	}
	if unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != nil {
		return func() {}
	}
	return func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0) }
}

// adopted is report's children but cmdPid: the orphans of CMD's tree it
// adopted, report starting no other process while CMD runs.
func adopted(cmdPid int) []int {
	return slices.DeleteFunc(children(os.Getpid()), func(p int) bool { return p == cmdPid })
}

// reapOrphans reaps those of the killed pids that are, or become, report's
// children (adopted, or reparented to report when their killed parent
// died): a zombie keeps its process table entry until its parent reaps
// it. cmdPid is cmd.Wait's to reap. It gives up after a few seconds: a
// process that a SIGKILL does not end at once (stuck in the kernel) is
// left to whoever reaps it after report.
func reapOrphans(cmdPid int, pids []int) {
	pending := slices.DeleteFunc(slices.Clone(pids), func(p int) bool { return p == cmdPid })
	if len(pending) == 0 {
		return
	}
	go func() {
		for deadline := time.Now().Add(5 * time.Second); len(pending) > 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			pending = slices.DeleteFunc(pending, func(p int) bool {
				var ws unix.WaitStatus
				wpid, err := unix.Wait4(p, &ws, unix.WNOHANG, nil)
				// Reaped here, or gone without being report's to reap.
				return wpid == p || (err == unix.ECHILD && unix.Kill(p, 0) == unix.ESRCH)
			})
		}
	}()
}
