//go:build linux

package main

import (
	"os"
	"slices"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// orphans is what report adopts of CMD's tree when an interrupt comes: a
// process whose parent the interrupt ends (a shell's background job that
// ignores SIGINT, the shell gone) is reparented to report rather than to
// init, so that the kill at the grace still finds it and report reaps it.
// Report is a child subreaper from the interrupt to CMD's end only: an
// orphan left before the interrupt goes to init as it would without
// report (no zombie kept for the run, getppid() still 1). Of report's
// children, only those recorded (pid and start time) as in CMD's tree
// when the interrupt came, or when report killed what is left of it, are
// signalled or reaped: never one report's process had before (a server a
// shell started before exec'ing projectops), nor CMD (cmd.Wait's to
// reap), nor another run's.
type orphans struct {
	mu      sync.Mutex
	tree    map[int]uint64 // CMD's tree from the interrupt on: pid -> start time
	reaping bool           // adopt holds a subreaper reference that release drops
}

// adopt makes report a subreaper (once per run), then records CMD's tree
// (cmdPid's descendants): subreaper first, so nothing in the record can be
// orphaned to init before it is.
func (o *orphans) adopt(cmdPid int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.reaping {
		return
	}
	o.reaping = true
	subreaper.hold()
	o.trackLocked(descendants(cmdPid))
}

// track adds pids, found in CMD's tree or under what report adopted of it
// (a process started since the interrupt), to what report may reap once
// they are killed: recorded before the kill, while their pids are theirs.
func (o *orphans) track(pids []int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.trackLocked(pids)
}

func (o *orphans) trackLocked(pids []int) {
	if o.tree == nil {
		o.tree = map[int]uint64{}
	}
	for _, p := range pids {
		if st, ok := startTime(p); ok {
			o.tree[p] = st
		}
	}
}

// release drops adopt's subreaper reference (see subreaper).
func (o *orphans) release() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.reaping {
		o.reaping = false
		subreaper.drop()
	}
}

// adopted is report's children recorded as in CMD's tree.
func (o *orphans) adopted() []int {
	return slices.DeleteFunc(children(os.Getpid()), func(p int) bool { return !o.ours(p) })
}

// ours reports whether pid is the process adopt recorded (same start
// time: a pid reused since is another process).
func (o *orphans) ours(pid int) bool {
	o.mu.Lock()
	want, ok := o.tree[pid]
	o.mu.Unlock()
	st, sok := startTime(pid)
	return ok && sok && st == want
}

// reap reaps those of the killed pids that are, or become, report's
// children and were recorded as in CMD's tree (adopted, or
// reparented to report when their killed parent died), by pid: a zombie
// keeps its process table entry until its parent reaps it. Checked as
// report's child first, a process stays report's to reap (no one else
// can take it, nor its pid). It gives up after a few seconds: a process
// that a SIGKILL does not end at once (stuck in the kernel) is left to
// whoever reaps it after report.
func (o *orphans) reap(pids []int) {
	self := os.Getpid()
	pending := slices.DeleteFunc(slices.Clone(pids), func(p int) bool { return !o.ours(p) })
	if len(pending) == 0 {
		return
	}
	go func() {
		for deadline := time.Now().Add(5 * time.Second); len(pending) > 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			pending = slices.DeleteFunc(pending, func(p int) bool {
				if !o.ours(p) {
					return true // gone, or another's reaped it
				}
				if parent(p) != self {
					return false // not reparented yet
				}
				var ws unix.WaitStatus
				wpid, _ := unix.Wait4(p, &ws, unix.WNOHANG, nil)
				return wpid == p
			})
		}
	}()
}

// subreaper is report's one subreaper setting (process-wide).
var subreaper subreaperCount

// subreaperCount counts the runs that need report's process to be a child
// subreaper, so that runs nested or in parallel in one process (tests) do
// not turn it off under one another; the last restores the setting the
// first found.
type subreaperCount struct {
	mu   sync.Mutex
	n    int
	undo func()
}

// hold turns the subreaper on for the first holder. Found on (set by the
// program around report), or unknown, it is left as it is.
func (s *subreaperCount) hold() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n++; s.n > 1 {
		return
	}
	s.undo = func() {}
	var was int32
	if unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&was)), 0, 0, 0) != nil || was != 0 {
		return // unknown, or set by someone else: theirs to undo
	}
	if unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == nil {
		s.undo = func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0) }
	}
}

// drop undoes hold; the last holder restores the setting.
func (s *subreaperCount) drop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n--; s.n == 0 {
		s.undo()
	}
}

// startTime is pid's start time (/proc/PID/stat field 22, clock ticks
// since boot): with the pid, it names one process, as a pid alone does
// not once the pid is reused.
func startTime(pid int) (uint64, bool) {
	f := statFields(pid)
	if len(f) < 20 {
		return 0, false
	}
	st, err := strconv.ParseUint(f[19], 10, 64)
	return st, err == nil
}

// parent is pid's parent's pid (field 4); 0 when pid is gone.
func parent(pid int) int {
	f := statFields(pid)
	if len(f) < 2 {
		return 0
	}
	pp, _ := strconv.Atoi(f[1])
	return pp
}
