//go:build unix

package mcpconn

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
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
	eventually(t, "the wrapper's child to end", func() bool { return !running(pid) })
}

// running reports a live process (a zombie is not).
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: the signal check is all there is
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}
