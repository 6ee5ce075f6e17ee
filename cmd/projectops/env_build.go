package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/projectops/projectops-go/environments"
	"github.com/spf13/pflag"
)

func envBuildFlags(fs *pflag.FlagSet) (func() error, func(ec *envCmd) error) {
	wait := fs.Bool("wait", true, "follow the build until it ends; --wait=false returns once it is queued")
	interval := fs.Duration("interval", time.Second, "first polling `interval` while following (backs off to 10x)")
	waitTimeout := fs.Duration("wait-timeout", defaultBuildWaitTimeout,
		"stop following the build after this `long` (0: no limit); it goes on, and the exit status is 2")
	check := func() error {
		switch {
		case *interval <= 0:
			return usagef("--interval must be positive")
		case *waitTimeout < 0:
			return usagef("--wait-timeout must not be negative (0 waits for good)")
		case !*wait && fs.Changed("wait-timeout"):
			return usagef("--wait-timeout needs --wait")
		}
		return nil
	}
	return check, func(ec *envCmd) error {
		st, err := ec.c.Environments.Build(ec.ctx, ec.project, ec.arg)
		if err != nil {
			// Only the interrupt's own cancellation: an answer the service
			// gave is said as it is, even when Ctrl-C came after it.
			if errors.Is(err, context.Canceled) && ec.ctx.Err() != nil {
				return fmt.Errorf("interrupted before the service answered; a build may have started (see: projectops env builds --project %s %s)",
					ec.project, ec.arg)
			}
			return err
		}
		id := maskedField(st.BuildID) // as printed, on stdout and as progress
		if !*wait {
			return ec.print(st, func(w io.Writer) { fmt.Fprintf(w, "build %s queued\n", id) })
		}
		var p *buildProgress
		opts := []environments.WaitOption{environments.WithPollInterval(*interval, 10**interval)}
		if !ec.json {
			p = &buildProgress{w: ec.stderr, tty: isTerminal(ec.stderr), id: id, start: time.Now()}
		}
		var mu sync.Mutex
		// The heartbeat prints state as it is: escaped here.
		state := "build " + id + ": queued"
		opts = append(opts, environments.WithProgress(func(b *environments.Build) {
			mu.Lock()
			state = "build " + id + ": " + printableField(string(b.Status))
			mu.Unlock()
			if p != nil {
				p.update(*b)
			}
		}))
		stopBeat := heartbeat(ec.stderr, func() string { mu.Lock(); defer mu.Unlock(); return state })
		wctx, cancel := ec.ctx, context.CancelFunc(func() {})
		if *waitTimeout > 0 { // a stuck build must not hold a CI job until the job's own limit
			wctx, cancel = context.WithTimeout(ec.ctx, *waitTimeout)
		}
		b, err := ec.c.Environments.WaitForBuild(wctx, ec.project, ec.arg, st.BuildID, opts...)
		// Wait may end before wctx does when its next poll would come
		// after the deadline: the error says so, not only wctx.Err().
		timedOut := ec.ctx.Err() == nil && (wctx.Err() != nil || errors.Is(err, context.DeadlineExceeded))
		cancel()
		stopBeat()
		if p != nil {
			done := b
			if err != nil && !errors.Is(err, environments.ErrBuildFailed) {
				done = nil // still going: the last build seen is not an end
			}
			p.finish(done)
		}
		if errors.Is(err, environments.ErrBuildFailed) {
			// The build ran and failed: a gate. --json still prints it
			// (its status and error are the data), as a failed eval run does.
			if be, ok := errors.AsType[*environments.BuildError](err); ok && be.Build != nil && ec.json {
				if perr := ec.print(be.Build, func(io.Writer) {}); perr != nil {
					return perr
				}
			}
			return gateError{errText(err)}
		}
		if err != nil {
			if ec.ctx.Err() != nil || timedOut { // the build goes on without us
				why := "stopped waiting"
				if timedOut {
					why = fmt.Sprintf("stopped waiting after --wait-timeout %s", *waitTimeout)
				}
				return pasteError{head: fmt.Sprintf("%s; build %s continues", why, st.BuildID),
					text: fmt.Sprintf(" (see it with: %s)", ec.command("env builds", nil, ec.arg))}
			}
			return err
		}
		return ec.print(b, func(io.Writer) {})
	}
}

// defaultBuildWaitTimeout bounds following a build, as --wait-timeout
// bounds following an eval run.
const defaultBuildWaitTimeout = 30 * time.Minute

// buildProgress shows a build as it goes: new log lines as they appear and
// each status change. On a terminal the status is one line at the bottom,
// redrawn in place; elsewhere (a pipe, a CI log) every change is a line.
type buildProgress struct {
	w      io.Writer
	tty    bool
	id     string
	start  time.Time
	status environments.BuildStatus
	prev   []string // the lines of the preview last printed from
}

// update is the WaitForBuild progress callback.
func (p *buildProgress) update(b environments.Build) {
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K") // clear the status line
	}
	for _, l := range p.newLines(b.LogPreview) {
		fmt.Fprintln(p.w, "  "+printable(l)) // the build's own output: see printable
	}
	if b.Status != p.status && !p.tty {
		fmt.Fprintf(p.w, "build %s: %s\n", p.id, printableField(string(b.Status)))
	}
	p.status = b.Status
	if p.tty {
		fmt.Fprintf(p.w, "build %s: %s (%s)", p.id, printableField(string(b.Status)), time.Since(p.start).Round(time.Second))
	}
}

// finish ends the display with the outcome.
func (p *buildProgress) finish(b *environments.Build) {
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
	if b == nil {
		if p.tty && p.status != "" {
			fmt.Fprintf(p.w, "build %s: %s (stopped following)\n", p.id, printableField(string(p.status)))
		}
		return
	}
	if p.tty || b.Status != p.status {
		fmt.Fprintf(p.w, "build %s: %s\n", p.id, printableField(string(b.Status)))
	}
}

// newLines returns the lines of a log preview (a capped tail) not printed
// yet: those after the part the previous preview ended with, or all when
// the tail moved past it.
func (p *buildProgress) newLines(preview string) []string {
	if preview == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(preview, "\n"), "\n") // a final newline ends a line, it starts none
	if strings.HasPrefix(lines[0], "[") && strings.Contains(lines[0], "truncated") {
		lines = lines[1:]
	}
	// The preview is the log's tail: what is new follows the longest run
	// of its first lines that ends the previous preview (a repeated line,
	// "ok" or a blank, is no landmark on its own).
	k := min(len(lines), len(p.prev))
	for ; k > 0; k-- {
		if slices.Equal(lines[:k], p.prev[len(p.prev)-k:]) {
			break
		}
	}
	p.prev = lines
	return lines[k:]
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := unwrapWriter(w).(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
