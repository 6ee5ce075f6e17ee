//go:build unix

package proctest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Running reports a live process: one that a signal reaches and, where
// /proc tells, not a zombie.
func Running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: the signal check is all there is
	}
	return !zombie(b)
}

// SigkillPending reports whether pid has SIGKILL pending, for one of its
// threads or the whole process: the kernel ends it before it runs again.
// Without /proc it reports false.
func SigkillPending(pid int) bool {
	return sigkillPendingAt("/proc/" + strconv.Itoa(pid) + "/status")
}

// With lists the processes whose environment holds token and that still
// run (neither zombies nor with SIGKILL pending), each as its pid and
// command line. It fails t when /proc lists no process.
func With(t testing.TB, token string) []string {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no processes listed in /proc (%v)", err)
	}
	var out []string
	for _, d := range dirs {
		env, err := os.ReadFile(filepath.Join(d, "environ"))
		if err != nil || !strings.Contains(string(env), token) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join(d, "stat"))
		if zombie(stat) || sigkillPendingAt(filepath.Join(d, "status")) {
			continue
		}
		cmd, _ := os.ReadFile(filepath.Join(d, "cmdline"))
		out = append(out, filepath.Base(d)+" "+strings.ReplaceAll(string(cmd), "\x00", " "))
	}
	return out
}

// zombie reports whether a /proc stat line is a zombie's: its state,
// after the parenthesised command name (which may hold ") "), is Z.
func zombie(stat []byte) bool {
	i := strings.LastIndexByte(string(stat), ')')
	return i > 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

// sigkillPendingAt is SigkillPending for the /proc status file at path.
func sigkillPendingAt(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || (k != "SigPnd" && k != "ShdPnd") {
			continue
		}
		if mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64); err == nil && mask&(1<<(syscall.SIGKILL-1)) != 0 {
			return true
		}
	}
	return false
}
