//go:build unix

package mcpconn

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/projectops/projectops-go/internal/proctest"
)

// A stdio server started through a wrapper (sh -c, as npx and shell
// launchers do) leaves nothing running after Close: what the wrapper
// started goes with it, however it handles its stdin closing.
func TestCloseEndsTheWrappersProcesses(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidfile := filepath.Join(t.TempDir(), "pid")
	c, err := testDialer().Dial(t.Context(), Target{Transport: TransportStdio, Command: "sh",
		Args: []string{"-c", `sleep 1000 & echo $! > "$1"; exec "$0"`, exe, pidfile}, Env: []string{stdioEnv + "=1"}})
	if err != nil {
		t.Fatal(err)
	}
	echo(t, c)
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	eventually(t, "the wrapper's child to end", func() bool { return !proctest.Running(pid) })
}

// stubborn returns a dialer whose stdio servers get a minute for each
// polite step of their teardown (so only a kill ends them in a test), and
// a target for a stubborn server (serveStubborn) writing its helper's pid
// to pidfile.
func stubborn(t *testing.T) (*Dialer, Target, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	d := testDialer()
	d.TerminateDuration = time.Minute
	pidfile := filepath.Join(t.TempDir(), "pid")
	return d, Target{Transport: TransportStdio, Command: exe,
		Env: []string{stdioEnv + "=stubborn", pidfileEnv + "=" + pidfile}}, pidfile
}

// checkEnded fails the test unless the server leader was reaped (its pid
// no longer names a process, not even a zombie) and its helper ended or
// was killed (it is not scheduled to run again).
func checkEnded(t *testing.T, leader int, pidfile string) {
	t.Helper()
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	helper, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(leader, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the stdio server (pid %d) is still there (running %v), not reaped", leader, proctest.Running(leader))
	}
	if proctest.Running(helper) && !proctest.SigkillPending(helper) {
		t.Errorf("the stdio server's helper process (pid %d) is still running", helper)
	}
}

// A session whose teardown runs out of time (a server that ignores its
// stdin closing and SIGTERM) has its process group killed: when
// CloseWithin returns, the server is reaped and the process it started
// has ended, with no goroutine left waiting for either (TestMain's leak
// check).
func TestCloseWithinKillsAStubbornServer(t *testing.T) {
	t.Parallel()
	d, target, pidfile := stubborn(t)
	c, err := d.Dial(t.Context(), target)
	if err != nil {
		t.Fatal(err)
	}
	echo(t, c)
	leader := c.proc.cmd.Process.Pid
	if CloseWithin(c, 50*time.Millisecond) {
		t.Fatal("CloseWithin reported a stubborn server's close as finished in time")
	}
	checkEnded(t, leader, pidfile)
}

// Pool.Close leaves no kept stdio server running, however it handles its
// stdin closing and SIGTERM.
func TestPoolCloseKillsAStubbornServer(t *testing.T) {
	t.Parallel()
	d, target, pidfile := stubborn(t)
	p := NewPool(context.Background(), d, time.Minute, 50*time.Millisecond)
	l, err := p.Acquire(t.Context(), "a", target)
	if err != nil {
		t.Fatal(err)
	}
	echo(t, l.Conn)
	leader := l.Conn.proc.cmd.Process.Pid
	l.Release(false)
	p.Close()
	checkEnded(t, leader, pidfile)
}
