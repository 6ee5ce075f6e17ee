//go:build linux

package proctest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// A live process runs and With finds it by a token in its environment;
// once it exited and before it is reaped, its zombie still takes a signal
// but runs no more, and With leaves it out.
func TestRunningAndWithLeaveZombiesOut(t *testing.T) {
	token := "PROCTEST_TOKEN=" + strconv.Itoa(os.Getpid())
	cmd := exec.Command("sleep", "1000")
	cmd.Env = append(os.Environ(), token)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	defer cmd.Wait()
	defer cmd.Process.Kill()
	if !Running(pid) {
		t.Error("a sleeping process does not read as running")
	}
	if got := With(t, token); len(got) != 1 {
		t.Errorf("With(token) = %q, want the sleeping process", got)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != nil {
		t.Fatal(err)
	}
	if syscall.Kill(pid, 0) != nil {
		t.Fatal("the zombie is already gone")
	}
	if Running(pid) {
		t.Error("a zombie reads as running")
	}
	if got := With(t, token); len(got) != 0 {
		t.Errorf("With(token) = %q once the process is a zombie, want none", got)
	}
}

// SIGKILL pending, for a thread (SigPnd) or the process (ShdPnd), is
// read from a status file; another signal, or none, is not it.
func TestSigkillPendingAt(t *testing.T) {
	dir := t.TempDir()
	for status, want := range map[string]bool{
		"Name:\tx\nSigPnd:\t0000000000000000\nShdPnd:\t0000000000000100\n": true,
		"Name:\tx\nSigPnd:\t0000000000000100\nShdPnd:\t0000000000000000\n": true,
		"Name:\tx\nSigPnd:\t0000000000004000\nShdPnd:\t0000000000000000\n": false, // SIGTERM
		"Name:\tx\n": false,
	} {
		p := filepath.Join(dir, "status")
		if err := os.WriteFile(p, []byte(status), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := sigkillPendingAt(p); got != want {
			t.Errorf("%q: %v, want %v", status, got, want)
		}
	}
	if sigkillPendingAt(filepath.Join(dir, "absent")) {
		t.Error("no status file: SIGKILL pending")
	}
}
