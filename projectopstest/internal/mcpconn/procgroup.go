package mcpconn

import (
	"os/exec"
	"sync"
)

// procGroup is a stdio server's process and the group it leads. Its group
// is signalled by the leader's pid, which names the group only while the
// leader, or another member, still holds it: once every one of them is
// gone the number may be reused (after a wrap of the pid space) by an
// unrelated group. So where it can, wait kills what is left of the group
// while the exited leader is a zombie, before reaping it, and no kill is
// sent after that.
type procGroup struct {
	cmd    *exec.Cmd
	mu     sync.Mutex // orders kills against the reap
	reaped bool       // the group was ended as its leader was reaped (set before cmd.Wait returns)
}

// kill ends the group at once (SIGKILL). It reports false when there is
// nothing to end: the process never started, or it was reaped.
func (g *procGroup) kill() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.reaped || g.cmd.Process == nil {
		return false
	}
	killGroup(g.cmd)
	return true
}

// wait waits for the leader to exit and reaps it. Where the exit can be
// awaited without reaping (Linux), what is left of the group is killed
// first, while the zombie leader still holds the group's id; elsewhere
// later kills are sent as before, by a pid that may by then be free.
func (g *procGroup) wait() error {
	if awaitExit(g.cmd.Process.Pid) {
		g.mu.Lock()
		killGroup(g.cmd)
		g.reaped = true
		g.mu.Unlock()
	}
	return g.cmd.Wait()
}
