//go:build linux

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// running reports whether pid runs (a zombie a container's init never
// reaps does not).
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

// An interrupt that reached report alone (SIGTERM from a CI cancel, kill
// PID) reaches CMD as SIGINT; what CMD started and waits on, as go test
// waits on its test binary, is killed with it at the grace, not left
// running.
func TestReportInterruptKillsWhatCommandStarted(t *testing.T) {
	reportEnv(t)
	setGrace(t, time.Second)
	devnullStdin(t)
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	script := `echo '{"Action":"start","Package":"example.com/p"}'
echo '{"Action":"run","Package":"example.com/p","Test":"TestSlow"}'
trap 'wait' INT
sh -c 'echo $$ > ` + pidFile + `; exec sleep 30' >/dev/null 2>&1 &
wait`
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(500*time.Millisecond, cancel)
	var o, e bytes.Buffer
	code := run(ctx, []string{"report", "-q", "--external-run-id", "tree", "--", "sh", "-c", script}, &o, &e)
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	defer syscall.Kill(pid, syscall.SIGKILL)
	for deadline := time.Now().Add(2 * time.Second); running(pid) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if running(pid) {
		t.Errorf("exit %d: what the command started (pid %d) outlived report; stderr %q", code, pid, e.String())
	}
}

const (
	ttyReportChild = "PROJECTOPS_CLI_TTY_REPORT"
	ttyCommandMode = "PROJECTOPS_CLI_TTY_COMMAND"
)

// ttyChild plays its part when test runs as a child: CMD (counting
// SIGINTs: exit 3 after one and its cleanup, 130 after a second, 4 after
// none in 4 s) or report running CMD as the pty's foreground job. It
// reports whether it played one.
func ttyChild(test string) bool {
	if marker := os.Getenv(ttyCommandMode); marker != "" {
		ch := make(chan os.Signal, 4)
		signal.Notify(ch, os.Interrupt)
		fmt.Println(`{"Action":"start","Package":"example.com/p"}`)
		_ = os.WriteFile(marker, []byte("ready"), 0o600)
		select {
		case <-ch:
		case <-time.After(4 * time.Second):
			os.Exit(4) // never told
		}
		select {
		case <-ch:
			os.Exit(130) // a second one: cleanup cut short
		case <-time.After(700 * time.Millisecond):
			os.Exit(3) // cleanup done
		}
	}
	if marker := os.Getenv(ttyReportChild); marker != "" {
		os.Setenv(ttyCommandMode, marker)
		os.Args = []string{"projectops", "report", "-q", "--external-run-id", "tty", "--", os.Args[0], "-test.run=^" + test + "$"}
		main()
		return true
	}
	return false
}

// reportInTerminal runs report -- CMD (ttyChild) as a login shell's job on
// a pty, does interrupt to it once CMD is ready, and returns report's exit
// code and what the terminal showed.
func reportInTerminal(t *testing.T, test string, interrupt func(m *os.File, report *os.Process)) (int, string) {
	t.Helper()
	reportEnv(t)
	m, s := openPty(t)
	defer m.Close()
	ready := filepath.Join(t.TempDir(), "ready")
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), ttyReportChild+"="+ready)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s, s, s
	// A session leader with the pty as its terminal, its group in the
	// foreground.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	var screen syncBuffer
	go func() { _, _ = io.Copy(&screen, m) }()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for i := 0; i < 250; i++ {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	interrupt(m, cmd.Process)
	var err error
	select {
	case err = <-exited:
	case <-time.After(20 * time.Second):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
		t.Fatalf("report still running 20 s after the interrupt; screen %q", screen.String())
	}
	code := 0
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		code = ee.ExitCode()
	}
	return code, screen.String()
}

// Ctrl-C in a terminal reaches report and CMD alike (one foreground job);
// report does not send CMD a second SIGINT, which a command may take for
// "quit now, skip the cleanup".
func TestReportCtrlCInTerminalIsOneSIGINT(t *testing.T) {
	if ttyChild("TestReportCtrlCInTerminalIsOneSIGINT") {
		return
	}
	code, screen := reportInTerminal(t, "TestReportCtrlCInTerminalIsOneSIGINT", func(m *os.File, _ *os.Process) {
		_, _ = m.Write([]byte{3}) // Ctrl-C: the line discipline signals the foreground job
	})
	if code != 3 {
		t.Errorf("one Ctrl-C: exit %d, want CMD's 3 (one SIGINT, its cleanup finished); screen %q", code, screen)
	}
}

// A SIGTERM to report alone (kill PID, an IDE's stop button) while report
// is the terminal's foreground job reached nobody else: report sends CMD
// its SIGINT.
func TestReportSIGTERMInTerminalInterruptsCommand(t *testing.T) {
	if ttyChild("TestReportSIGTERMInTerminalInterruptsCommand") {
		return
	}
	code, screen := reportInTerminal(t, "TestReportSIGTERMInTerminalInterruptsCommand", func(_ *os.File, report *os.Process) {
		_ = report.Signal(syscall.SIGTERM) // to report alone
	})
	if code != 3 {
		t.Errorf("SIGTERM to report in a terminal: exit %d, want CMD's 3 (CMD got SIGINT); screen %q", code, screen)
	}
}

// openPty returns a pseudo-terminal's master and slave.
func openPty(t *testing.T) (m, s *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("no pty: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return m, s
}

// The interrupt reaches CMD's tree as Ctrl-C reaches a terminal's job: a
// process CMD started that left the job on purpose (setsid: a daemon, a
// helper meant to outlive the run) is not sent it.
func TestInterruptSparesWhatLeftTheJob(t *testing.T) {
	needSetsid(t)
	reportEnv(t)
	setGrace(t, 3*time.Second)
	devnullStdin(t)
	dir := t.TempDir()
	got, ready := filepath.Join(dir, "got-int"), filepath.Join(dir, "ready")
	script := `echo '{"Action":"start","Package":"example.com/p"}'
setsid sh -c 'trap "echo INT > ` + got + `; exit 0" INT; : > ` + ready + `; n=0; while [ $n -lt 40 ]; do sleep 0.05; n=$((n+1)); done'`
	interruptWhenReady(t, script, ready, "setsid")
	if _, err := os.Stat(got); err == nil {
		t.Errorf("a process in its own session (setsid) was sent SIGINT; Ctrl-C reaches the foreground process group only")
	}
}

// An interrupt reaches what -- CMD started too, as Ctrl-C reaches a
// terminal's whole job: the go command waits out a SIGINT of its own for
// its test binaries (here a shell that traps it, waiting on its child), so
// a signal to report alone (CI's, timeout's) never stopped the tests,
// which ran on to the kill at the grace (137).
func TestReportCommandInterruptReachesItsChildren(t *testing.T) {
	reportEnv(t)
	setGrace(t, 5*time.Second)
	cat := catEvents(t, doneEvents)
	devnullStdin(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(time.Second, cancel) // after the command started, on a loaded machine too
	var o, e bytes.Buffer
	code := run(ctx, []string{"report", "-q", "--external-run-id", "cmd-tree", "--", "sh", "-c",
		cat + "; trap : INT; sleep 30; exit 1"}, &o, &e)
	if code != 1 {
		t.Errorf("exit %d, want the command's 1 (its child stopped by the SIGINT, it went on to exit 1); stderr %q", code, e.String())
	}
}

// The kill at the grace spares a process that left report's job (setsid:
// a helper meant to outlive the run), as the interrupt's SIGINT does.
func TestGraceKillSparesWhatLeftTheJob(t *testing.T) {
	needSetsid(t)
	reportEnv(t)
	setGrace(t, 500*time.Millisecond)
	devnullStdin(t)
	ready := filepath.Join(t.TempDir(), "ready")
	script := `echo '{"Action":"start","Package":"example.com/p"}'
setsid sh -c '` + writePID(ready) + `; n=0; while [ $n -lt 1200 ]; do sleep 0.05; n=$((n+1)); done' </dev/null >/dev/null 2>&1 &
trap "" INT
exec sleep 30`
	interruptWhenReady(t, script, ready, "setsid-grace")
	pid := readPID(t, ready)
	// report has returned, so the kill at the grace is behind us (the
	// helper's own life is a minute); a kill just sent may take the kernel
	// a moment, so look twice.
	alive := running(pid)
	time.Sleep(200 * time.Millisecond)
	if !alive || !running(pid) {
		t.Errorf("the setsid'd helper (spared the SIGINT) was killed at the grace with CMD")
	}
}

// writePID is the shell that writes its own pid into file, whole: a
// reader polling for file never sees it empty.
func writePID(file string) string {
	return `echo $$ > ` + file + `.tmp && mv ` + file + `.tmp ` + file
}

// readPID reads the pid writePID wrote, and kills that process when the
// test ends (a helper that outlived the check must not outlive the test).
func readPID(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the script never started: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	t.Cleanup(func() {
		if running(pid) { // a dead pid may be someone else's by now
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return pid
}

// needSetsid fails the test where setsid (util-linux) is missing: without
// it the tests that use it would check nothing.
func needSetsid(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Fatalf("these tests need setsid (util-linux): %v", err)
	}
}

// The kill at the grace reaches what CMD started in a group of its own
// without leaving the session (coreutils timeout, a shell with set -m):
// go test's test binaries under "timeout 10m go test" are not daemons.
func TestGraceKillReachesTimeoutsChildren(t *testing.T) {
	if _, err := exec.LookPath("timeout"); err != nil {
		t.Fatalf("this test needs timeout (coreutils): %v", err)
	}
	reportEnv(t)
	setGrace(t, 500*time.Millisecond)
	devnullStdin(t)
	ready := filepath.Join(t.TempDir(), "ready")
	// timeout setpgid()s itself; its child ignores SIGINT (a test binary's
	// long cleanup, a trap), so only the kill at the grace can stop it
	// before its own minute is up.
	script := `echo '{"Action":"start","Package":"example.com/p"}'
exec timeout 60 sh -c 'trap "" INT; ` + writePID(ready) + `; while :; do sleep 0.05; done'`
	interruptWhenReady(t, script, ready, "timeout-grace")
	pid := readPID(t, ready)
	// Killed before report returned; dying may take the kernel a moment.
	for i := 0; i < 500 && running(pid); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	if running(pid) {
		t.Errorf("CMD's child (in timeout's process group, same session) outlived the kill at the grace")
	}
}

// interruptWhenReady runs report -- sh -c script and interrupts it once
// the file ready exists (what script starts is then running), and returns
// when report has ended.
func interruptWhenReady(t *testing.T, script, ready, runID string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for i := 0; i < 3000; i++ { // 30 s: a loaded CI host starts shells slowly
			if _, err := os.Stat(ready); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	var o, e bytes.Buffer
	run(ctx, []string{"report", "-q", "--external-run-id", runID, "--", "sh", "-c", script}, &o, &e)
}

// gone reports whether pid has no process table entry: ended and reaped,
// no zombie left.
func gone(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return errors.Is(err, fs.ErrNotExist)
}

// interruptOrphaning runs report -- sh -c script, interrupted once the
// background job the script starts (which a non-interactive shell starts
// with SIGINT ignored; its pid in pidFile) and the script, by then
// replaced by its last command (its pid in pidFile+".cmd"), both run
// sleep: sooner, a SIGINT could end the job's shell before it ignores the
// signal. It returns the job's pid once report has returned.
func interruptOrphaning(t *testing.T, script, pidFile string) (pid, code int, stderr string) {
	t.Helper()
	reportEnv(t)
	setGrace(t, time.Second)
	devnullStdin(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for {
			if isSleep(pidFile) && isSleep(pidFile+".cmd") {
				cancel()
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	var o, e bytes.Buffer
	code = run(ctx, []string{"report", "-q", "--external-run-id", "orphan", "--", "sh", "-c", script}, &o, &e)
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	if pid, err = strconv.Atoi(strings.TrimSpace(string(b))); err != nil || pid <= 0 {
		t.Fatalf("pid file %q: %v", b, err)
	}
	t.Cleanup(func() {
		if !gone(pid) { // the test failed: leave nothing running
			_ = syscall.Kill(pid, syscall.SIGKILL)
			var ws unix.WaitStatus
			_, _ = unix.Wait4(pid, &ws, 0, nil)
		}
	})
	return pid, code, e.String()
}

// isSleep reports whether the process whose pid file names runs sleep.
func isSleep(pidFile string) bool {
	b, err := os.ReadFile(pidFile)
	if err != nil || !strings.HasSuffix(string(b), "\n") {
		return false
	}
	comm, err := os.ReadFile("/proc/" + strings.TrimSpace(string(b)) + "/comm")
	return err == nil && string(comm) == "sleep\n"
}

// waitGone waits (up to a bound, for the reaper) until pid is gone.
func waitGone(pid int) bool {
	for deadline := time.Now().Add(5 * time.Second); !gone(pid) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	return gone(pid)
}

// A background job the shell CMD left behind when the interrupt ended it
// (no longer CMD's descendant: orphaned) is still what CMD started: report
// adopts it, kills it at the grace (it holds the output open, ignoring
// SIGINT) and reaps it, no zombie left.
func TestReportInterruptKillsOrphanedBackgroundJob(t *testing.T) {
	orphanKilledAtGrace(t, "2>/dev/null")
}

// So is one that does not hold the output: CMD ended, reading ends, and
// the job is killed at the grace all the same.
func TestReportInterruptKillsOrphanNotHoldingOutput(t *testing.T) {
	orphanKilledAtGrace(t, ">/dev/null 2>&1")
}

// orphanKilledAtGrace interrupts report running a shell that leaves a
// background job (its output redirected by redirect) as it is ended, and
// fails the test unless the job is killed and reaped.
func orphanKilledAtGrace(t *testing.T, redirect string) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "bg.pid")
	script := `echo '{"Action":"start","Package":"example.com/p"}'
echo '{"Action":"run","Package":"example.com/p","Test":"TestSlow"}'
sleep 300 ` + redirect + ` &
echo $! > ` + pidFile + `
echo $$ > ` + pidFile + `.cmd
exec sleep 300`
	pid, code, stderr := interruptOrphaning(t, script, pidFile)
	if !waitGone(pid) {
		t.Errorf("exit %d: the background job CMD started (pid %d) outlived report, or is left a zombie; stderr %q", code, pid, stderr)
	}
}

// A process that report's process has as a child but that CMD did not
// start (here: one the test process started; in the CLI, one inherited
// from a shell that exec'd projectops: `server & exec projectops report --
// go test ./...`) is not CMD's orphan: an interrupt neither signals, kills
// nor reaps it.
func TestReportInterruptSparesChildReportDidNotStart(t *testing.T) {
	reportEnv(t)
	setGrace(t, 500*time.Millisecond)
	devnullStdin(t)
	bystander := exec.Command("sleep", "300")
	if err := bystander.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bystander.Process.Kill(); _ = bystander.Wait() })
	ready := filepath.Join(t.TempDir(), "ready")
	script := `echo '{"Action":"start","Package":"example.com/p"}'
` + writePID(ready) + `
exec sleep 300`
	interruptWhenReady(t, script, ready, "bystander")
	_ = readPID(t, ready)
	if !running(bystander.Process.Pid) {
		t.Errorf("report's interrupt ended a child of its process that CMD never started (pid %d)", bystander.Process.Pid)
	}
}

// An orphan CMD's tree leaves before any interrupt is init's, as without
// report: when it exits it is not left a zombie under report's process
// for the rest of the run (nor does it see report as its parent).
func TestReportOrphanBeforeInterruptLeavesNoZombie(t *testing.T) {
	reportEnv(t)
	devnullStdin(t)
	pidFile := filepath.Join(t.TempDir(), "orphan.pid")
	// The inner shell exits at once, orphaning its background job; CMD
	// waits until the job has exited (gone, or a zombie of whoever
	// adopted it) before it ends.
	script := `echo '{"Action":"start","Package":"example.com/p"}'
sh -c 'sleep 0.2 >/dev/null 2>&1 & echo $! > ` + pidFile + `'
pid=$(cat ` + pidFile + `)
while [ -d /proc/$pid ] && [ "$(cut -d')' -f2 /proc/$pid/stat | cut -d' ' -f2)" != Z ]; do sleep 0.02; done
echo '{"Action":"run","Package":"example.com/p","Test":"TestA"}'
echo '{"Action":"pass","Package":"example.com/p","Test":"TestA"}'`
	var o, e bytes.Buffer
	if code := run(context.Background(), []string{"report", "-q", "--external-run-id", "zombie", "--", "sh", "-c", script}, &o, &e); code != 0 {
		t.Fatalf("report: exit %d, stderr %q", code, e.String())
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	orphan, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range children(os.Getpid()) {
		if c == orphan {
			t.Errorf("the orphan (pid %d) is a child of report's process: a zombie kept for the run", orphan)
			var ws unix.WaitStatus
			_, _ = unix.Wait4(orphan, &ws, unix.WNOHANG, nil)
		}
	}
}

// Runs in one process share its subreaper setting: one run's end does not
// turn it off while another still needs it, and the last restores it.
func TestSubreaperHeldUntilLastRunDrops(t *testing.T) {
	on := func() bool {
		var v int32
		if err := unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&v)), 0, 0, 0); err != nil {
			t.Fatal(err)
		}
		return v != 0
	}
	if on() {
		t.Fatal("the test process is a subreaper already: nothing to check")
	}
	var a, b orphans
	a.adopt(os.Getpid())
	b.adopt(os.Getpid())
	a.release()
	if !on() {
		t.Errorf("one run's release turned the subreaper off under another")
	}
	b.release()
	b.release() // a second release is harmless
	if on() {
		t.Errorf("the last release left the subreaper on")
	}
}

// What CMD's tree starts after the interrupt (here: a trap's background
// job) and the kill at the grace ends is reaped too, not left a zombie
// under report's process.
func TestGraceKillReapsWhatStartedAfterInterrupt(t *testing.T) {
	reportEnv(t)
	setGrace(t, 500*time.Millisecond)
	devnullStdin(t)
	dir := t.TempDir()
	ready, late := filepath.Join(dir, "ready"), filepath.Join(dir, "late")
	script := `echo '{"Action":"start","Package":"example.com/p"}'
trap 'sleep 300 & echo $! > ` + late + `.tmp && mv ` + late + `.tmp ` + late + `' INT
` + writePID(ready) + `
while :; do sleep 0.05; done`
	interruptWhenReady(t, script, ready, "reap-late")
	_ = readPID(t, ready)
	pid := readPID(t, late)
	if !waitGone(pid) {
		t.Errorf("the job CMD started after the interrupt (pid %d) outlived report, or is left a zombie", pid)
		var ws unix.WaitStatus
		_, _ = unix.Wait4(pid, &ws, unix.WNOHANG, nil)
	}
}
