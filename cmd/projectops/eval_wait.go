package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/projectops/projectops-go/evals"
)

// waitFlags are the flags of a command that can follow a run to its
// verdict and gate on it (eval run, eval status): one set, so both
// follow, report and exit alike.
type waitFlags struct {
	junit, summary        string
	wait, waitTimeoutSet  bool
	interval, waitTimeout time.Duration
}

// defaultWaitTimeout bounds --wait as the service's own gate bounds it: a
// stuck run must not hold a CI job until the job's own limit.
const defaultWaitTimeout = 10 * time.Minute

// register adds the flags to fl; the caller sets waitTimeoutSet from
// fl.Changed("wait-timeout") before check.
func (f *waitFlags) register(fl *pflag.FlagSet) {
	fl.BoolVar(&f.wait, "wait", false, "follow the run until it ends, then print a summary; the exit code is the verdict")
	fl.DurationVar(&f.interval, "interval", evals.DefaultPollMin, "shortest `delay` between polls")
	fl.DurationVar(&f.waitTimeout, "wait-timeout", defaultWaitTimeout, "with --wait: stop following the run after this `long` (0: no limit); it goes on, and the exit status is 2")
	fl.StringVar(&f.junit, "junit", "", "with --wait: write the run as JUnit XML to `file` (one test case per iteration; - for stdout)")
	fl.StringVar(&f.summary, "summary", "", "with --wait: append a Markdown summary to `file` (works as $GITHUB_STEP_SUMMARY; - for stdout)")
}

// check refuses, as bad usage, flags that do not go together, and report
// files that cannot be written: checked before any request, as a report
// that cannot be written would otherwise cost a whole run (or a wait).
func (f waitFlags) check(json bool) error {
	if (f.junit != "" || f.summary != "") && !f.wait {
		return usagef("--junit and --summary need --wait")
	}
	// "-" writes the report to stdout, which then holds it alone.
	switch {
	case f.junit == stdoutPath && f.summary == stdoutPath:
		return usagef("--junit - and --summary - both write to standard output; give one of them a file")
	case json && (f.junit == stdoutPath || f.summary == stdoutPath):
		return usagef("--json and --junit - or --summary - both write to standard output; give the report a file")
	}
	switch {
	case f.interval <= 0:
		return usagef("--interval must be positive")
	case f.waitTimeout < 0:
		return usagef("--wait-timeout must not be negative (0 waits for good)")
	case f.waitTimeoutSet && !f.wait:
		return usagef("--wait-timeout needs --wait")
	}
	if f.junit != "" && f.junit != stdoutPath && sameFile(f.junit, f.summary) {
		// The Markdown would be appended to the XML, which then no
		// longer parses.
		return usagef("--junit and --summary name the same file, %s; give each report its own", f.junit)
	}
	if err := checkOutput("--junit", f.junit); err != nil {
		return err
	}
	return checkOutput("--summary", f.summary)
}

// follow waits for the run with live progress (on a terminal), prints the
// summary and returns nil when it passed, a gateError when it did not.
// started says the caller has seen the run going (eval run created it):
// else only a poll's answer tells that it exists and has not ended.
func (ec *evalCmd) follow(runID string, f waitFlags, started bool) error {
	interval, timeout, junit, summary := f.interval, f.waitTimeout, f.junit, f.summary
	live := isTerminal(ec.stderr) && !ec.json
	var mu sync.Mutex
	// The heartbeat prints state as it is: escaped and masked here.
	state := "run " + maskedField(runID) + ": waiting for its first poll"
	stop := heartbeat(ec.stderr, func() string { mu.Lock(); defer mu.Unlock(); return state })
	defer stop()
	progress := func(r *evals.Run) {
		if r.Summary != nil {
			mu.Lock()
			state = fmt.Sprintf("run %s: %s, %d/%d iterations done", maskedField(r.ID), printableField(string(r.Status)), r.Summary.Passed+r.Summary.Failed, r.Summary.Total)
			mu.Unlock()
		}
		if !live || r.Summary == nil {
			return
		}
		s := r.Summary
		fmt.Fprintf(ec.stderr, "\r%s %-9s %d/%d iterations  %d passed  %d failed ", maskedField(r.ID), printableField(string(r.Status)),
			s.Passed+s.Failed, s.Total, s.Passed, s.Failed)
	}
	ctx := ec.ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	run, err := ec.c.Evals.Runs.Wait(ctx, ec.project, runID, evals.WithProgress(progress),
		evals.WithPollInterval(interval, max(interval, evals.DefaultPollMax)))
	stop()
	if live {
		fmt.Fprintln(ec.stderr)
	}
	if err != nil {
		// Wait returns the last run a poll saw.
		return ec.stoppedWaiting(ctx, runID, timeout, started || run != nil, err)
	}
	iters, err := ec.iterations(runID, evals.MaxIterationsLimit)
	if err != nil {
		return err
	}
	reasons, err := ec.failReasons(runID, iters)
	if err != nil {
		return err
	}
	table := func(w io.Writer) {
		printIterations(w, iters, reasons)
		fmt.Fprintln(w, runLine(run))
	}
	if junit == stdoutPath || summary == stdoutPath {
		// Stdout holds the report alone, for the next command of a
		// pipe to parse: the table goes to stderr, as progress does.
		table(ec.stderr)
	} else if err := ec.print(struct {
		Run        *evals.Run        `json:"run"`
		Iterations []evals.Iteration `json:"iterations"`
	}{run, iters}, table); err != nil {
		return err
	}
	// The reports come after the verdict, so a report that still cannot be
	// written (checked before the run; the disk filled since) loses
	// neither the verdict nor the run's id.
	if err := ec.writeReports(run, iters, reasons, junit, summary); err != nil {
		return fmt.Errorf("run %s ended with verdict %s (above), but %w", runID, printableField(verdictOf(run)), err)
	}
	if !run.Passed() {
		return gateError{} // the run line says why
	}
	return nil
}

// stoppedWaiting is err, the end of a wait for runID that saw no verdict;
// when the wait was stopped (an interrupt, --wait-timeout), a pasteError
// saying how to follow the run again or cancel it: its id is known, so
// following it costs a poll, where sending eval run again would answer a
// run too. The run "continues" only once seen going: an id no poll
// answered for with the run may be a typo, or a run that has ended.
func (ec *evalCmd) stoppedWaiting(ctx context.Context, runID string, timeout time.Duration, seen bool, err error) error {
	var why string
	switch {
	case ec.ctx.Err() != nil:
	case ctx.Err() != nil, timeout > 0 && errors.Is(err, context.DeadlineExceeded): // Wait ends early when its next poll would come too late
		why = fmt.Sprintf(" after --wait-timeout %s", timeout)
	default:
		return err
	}
	head := fmt.Sprintf("stopped waiting%s; run %s continues", why, runID)
	if !seen {
		head = fmt.Sprintf("stopped waiting for run %s%s before a poll saw the run", runID, why)
	}
	if cause := lastPollCause(err); cause != nil && ctx.Err() == nil && ec.ctx.Err() == nil {
		// Ended before the deadline because a retry's wait would have
		// outlasted it: what was being retried (every poll a 503) is
		// why no poll saw the run. The service's words, masked as any
		// error's text is.
		head += fmt.Sprintf(" (the last poll: %s)", errText(cause))
	}
	return pasteError{head: head, text: fmt.Sprintf(" (follow it again with: %s; cancel it with: %s)",
		ec.command("eval status", []string{"--wait"}, runID), ec.command("eval cancel", nil, runID))}
}

// lastPollCause is what the last poll answered when err, which matches
// context.DeadlineExceeded, is a retry's wait cut short by the deadline
// ("context deadline exceeded while waiting to retry after: GET ...:
// 503 ..."): the outermost error in err's tree that does not match
// context.DeadlineExceeded, without the words of the wait around it; nil
// when there is none (the deadline alone ended the wait).
func lastPollCause(err error) error {
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	switch u := err.(type) {
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if c := lastPollCause(e); c != nil {
				return c
			}
		}
	case interface{ Unwrap() error }:
		return lastPollCause(u.Unwrap())
	}
	return nil
}

// writeReports writes the --junit and --summary reports that were asked
// for: both are tried (one failing loses not the other), and the error
// says each that was not written.
func (ec *evalCmd) writeReports(run *evals.Run, iters []evals.Iteration, reasons map[string]string, junit, summary string) error {
	var errs []error
	if junit != "" {
		x, err := junitXML(run, iters, reasons)
		if err == nil {
			err = ec.writeOutput(junit, x)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("--junit %s was not written: %w", junit, pathErr(err)))
		}
	}
	if summary != "" {
		err := ec.appendOutput(summary, func(w io.Writer) error { return summaryMarkdown(w, run, iters, reasons) })
		if err != nil {
			errs = append(errs, fmt.Errorf("--summary %s was not written: %w", summary, pathErr(err)))
		}
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return fmt.Errorf("%w; and %w", errs[0], errs[1]) // one line, as every error is said
}
