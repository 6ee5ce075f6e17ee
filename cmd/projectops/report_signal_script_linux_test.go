//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A double Ctrl-C stops the bash script that runs report: report dies of
// the second SIGINT, and bash stops a script only when its foreground
// child died of SIGINT (an exit 130 lets the script go on to its next
// command, a deploy say).
func TestReportSecondInterruptStopsCallingScript(t *testing.T) {
	reportEnv(t)
	cmd := exec.Command("/bin/bash", "-c", `"$0" -test.run='^TestReportSecondInterruptEndsIdleRead$'; echo "AFTER status=$?"`, os.Args[0])
	cmd.Env = append(os.Environ(), reportSignalChild+"=sig-script")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_, _ = w.Write([]byte("go: downloading example.com/m v1.0.0\n")) // and stdin stays open and idle
	time.Sleep(1500 * time.Millisecond)
	pg := -cmd.Process.Pid
	_ = syscall.Kill(pg, syscall.SIGINT) // a terminal's Ctrl-C reaches the whole group
	time.Sleep(700 * time.Millisecond)
	_ = syscall.Kill(pg, syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(pg, syscall.SIGKILL)
		<-done
		t.Fatalf("the script still runs 10 s after two interrupts; stderr %q", stderr.String())
	}
	if strings.Contains(stdout.String(), "AFTER") {
		t.Errorf("after a double Ctrl-C the calling bash script went on (report did not die of SIGINT): %q", stdout.String())
	}
}
