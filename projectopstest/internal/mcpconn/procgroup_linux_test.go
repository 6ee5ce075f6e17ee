package mcpconn

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/internal/proctest"
)

// Reaping a stdio server ends what is left of its process group first,
// while the exited leader still holds the group's id: when wait returns,
// a process the leader left behind is gone or being killed, and no kill
// is sent afterwards, by a pid the system may have handed to another
// process by then.
func TestProcGroupWaitKillsTheGroupBeforeTheReap(t *testing.T) {
	t.Parallel()
	pidfile := filepath.Join(t.TempDir(), "pid")
	cmd := exec.Command("sh", "-c", `sleep 1000 & echo $! > "$0"`, pidfile)
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	g := &procGroup{cmd: cmd}
	if err := g.wait(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	child, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if proctest.Running(child) && !proctest.SigkillPending(child) {
		t.Errorf("the process the leader left (pid %d) still runs once the leader is reaped", child)
	}
	if g.kill() {
		t.Error("kill after the reap signalled the group: its id may name another group by now")
	}
}

// Once a stdio session is closed, its server reaped and its group ended,
// a late kill (CloseWithin's, whose close ran out of time as it finished)
// finds nothing left and sends nothing.
func TestKillAfterCloseFindsNothing(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := testDialer().Dial(t.Context(), Target{Transport: TransportStdio, Command: exe, Env: []string{stdioEnv + "=1"}})
	if err != nil {
		t.Fatal(err)
	}
	echo(t, c)
	c.Close()
	if c.kill() {
		t.Error("kill after Close reported a process group to end")
	}
}
