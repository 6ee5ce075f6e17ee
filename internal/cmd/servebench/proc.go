package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// proc is the serve process, read through /proc (Linux).
type proc struct{ cmd *exec.Cmd }

func (p *proc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
	}
}

func (p *proc) file(name string) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(p.cmd.Process.Pid) + "/" + name)
	return string(b)
}

// cpu is the process's user+system time (clock ticks of 10ms on Linux).
func (p *proc) cpu() time.Duration {
	s := p.file("stat")
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+2:]
	}
	f := strings.Fields(s)
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	k, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+k) * 10 * time.Millisecond
}

// readBytes is what the process has read from files and sockets.
func (p *proc) readBytes() int64 { return field(p.file("io"), "rchar:") }

// rss is the process's resident set size in bytes.
func (p *proc) rss() (int64, bool) {
	kb := field(p.file("status"), "VmRSS:")
	return kb * 1024, kb > 0
}

func field(text, name string) int64 {
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, name); ok {
			n, _ := strconv.ParseInt(strings.Fields(rest)[0], 10, 64)
			return n
		}
	}
	return 0
}
