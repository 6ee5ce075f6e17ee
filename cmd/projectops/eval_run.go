package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/projectops/projectops-go/evals"
)

// serverList collects repeated --server flags.
type serverList []string

func (l *serverList) String() string     { return strings.Join(*l, ",") }
func (l *serverList) Set(v string) error { *l = append(*l, v); return nil }

func evalRunFlags(fs *flag.FlagSet) func(ec *evalCmd) int {
	suite := fs.String("suite", "", "rerun the suite with this `id`")
	file := fs.String("file", "", "run the tests in this JSON `file` (a run request: suiteName, serverIds, tests, ...; - reads standard input)")
	wait := fs.Bool("wait", false, "follow the run until it ends, then print a summary; the exit code is the verdict")
	interval := fs.Duration("interval", evals.DefaultPollMin, "shortest `delay` between polls")
	junit := fs.String("junit", "", "with --wait: write the run as JUnit XML to `file` (one test case per iteration)")
	summary := fs.String("summary", "", "with --wait: append a Markdown summary to `file` (works as $GITHUB_STEP_SUMMARY)")
	var servers serverList
	fs.Var(&servers, "server", "saved server `id` to run against (repeatable; overrides the suite's or the file's)")
	return func(ec *evalCmd) int {
		if (*suite == "") == (*file == "") {
			return ec.fail(2, fmt.Errorf("give exactly one of --suite or --file"))
		}
		if (*junit != "" || *summary != "") && !*wait {
			return ec.fail(2, fmt.Errorf("--junit and --summary need --wait"))
		}
		p := evals.RunParams{SuiteID: *suite}
		if *file != "" {
			var err error
			if p, err = readRunFile(*file); err != nil {
				return ec.fail(2, err)
			}
		}
		if len(servers) > 0 {
			p.ServerIDs = servers
		}
		rc, err := ec.c.Evals.Runs.Create(ec.ctx, ec.project, p)
		if err != nil {
			return ec.fail(2, err)
		}
		if !*wait {
			if ec.json {
				_ = ec.printJSON(rc)
			} else {
				fmt.Fprintf(ec.stdout, "run %s started (suite %s); follow it with --wait or poll it with: projectops eval iterations --project %s %s\n",
					rc.RunID, rc.SuiteID, ec.project, rc.RunID)
			}
			return 0
		}
		return ec.follow(rc.RunID, *interval, *junit, *summary)
	}
}

// readRunFile decodes a run request, rejecting unknown fields.
func readRunFile(path string) (evals.RunParams, error) {
	var p evals.RunParams
	var r io.Reader = os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return p, err
		}
		defer f.Close()
		r = f
	}
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return p, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// follow waits for the run with live progress (on a terminal), prints the
// summary and returns 0 when it passed, 1 when it did not, 2 on error.
func (ec *evalCmd) follow(runID string, interval time.Duration, junit, summary string) int {
	live := isTerminal(ec.stderr) && !ec.json
	var mu sync.Mutex
	state := "run " + runID + ": waiting for its first poll"
	stop := heartbeat(ec.stderr, func() string { mu.Lock(); defer mu.Unlock(); return state })
	defer stop()
	progress := func(r *evals.Run) {
		if r.Summary != nil {
			mu.Lock()
			state = fmt.Sprintf("run %s: %s, %d/%d iterations done", r.ID, r.Status, r.Summary.Passed+r.Summary.Failed, r.Summary.Total)
			mu.Unlock()
		}
		if !live || r.Summary == nil {
			return
		}
		s := r.Summary
		fmt.Fprintf(ec.stderr, "\r%s %-9s %d/%d iterations  %d passed  %d failed ", r.ID, r.Status,
			s.Passed+s.Failed, s.Total, s.Passed, s.Failed)
	}
	run, err := ec.c.Evals.Runs.Wait(ec.ctx, ec.project, runID, evals.WithProgress(progress),
		evals.WithPollInterval(interval, max(interval, evals.DefaultPollMax)))
	stop()
	if live {
		fmt.Fprintln(ec.stderr)
	}
	if err != nil {
		if ec.ctx.Err() != nil {
			fmt.Fprintf(ec.stderr, "%s: stopped waiting; run %s continues (cancel it with: projectops eval cancel --project %s %s)\n",
				ec.name, runID, ec.project, runID)
			return 2
		}
		return ec.fail(2, err)
	}
	var iters []evals.Iteration
	for it, err := range ec.c.Evals.Runs.Iterations(ec.ctx, ec.project, runID, &evals.IterationsParams{Limit: evals.MaxIterationsLimit}) {
		if err != nil {
			return ec.fail(2, err)
		}
		iters = append(iters, it)
	}
	reasons, err := failReasons(ec.ctx, ec, runID, iters)
	if err != nil {
		return ec.fail(2, err)
	}
	if junit != "" || summary != "" {
		if junit != "" {
			if err := writeJUnit(junit, run, iters, reasons); err != nil {
				return ec.fail(2, err)
			}
		}
		if summary != "" {
			if err := writeSummary(summary, run, iters, reasons); err != nil {
				return ec.fail(2, err)
			}
		}
	}
	if ec.json {
		_ = ec.printJSON(struct {
			Run        *evals.Run        `json:"run"`
			Iterations []evals.Iteration `json:"iterations"`
		}{run, iters})
	} else {
		printIterations(ec.stdout, iters, reasons)
		fmt.Fprintln(ec.stdout, runLine(run))
	}
	if run.Passed() {
		return 0
	}
	return 1
}

func runLine(r *evals.Run) string {
	s := evals.Summary{}
	if r.Summary != nil {
		s = *r.Summary
	}
	verdict := string(r.Result)
	if verdict == "" {
		verdict = "no verdict"
	}
	return fmt.Sprintf("run %s %s: %s (%d passed, %d failed of %d; pass rate %.0f%%)",
		r.ID, r.Status, verdict, s.Passed, s.Failed, s.Total, s.PassRate*100)
}

// printIterations prints one line per iteration; every cell is cut to
// one line, and a failed iteration's last column is why it failed (its
// failing step's reason, else its error).
func printIterations(w io.Writer, iters []evals.Iteration, reasons map[string]string) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tTEST\tSTATUS\tRESULT\tTOOL CALLS\tTOKENS\tMS\tREASON")
	for _, it := range iters {
		var calls []string
		for _, c := range it.ActualToolCalls {
			calls = append(calls, c.ToolName)
		}
		result := string(it.Result)
		if result == "" {
			result = "-"
		}
		reason := it.Error
		if r, ok := reasons[it.ID]; ok {
			reason = r
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%.0f\t%.0f\t%s\n", it.IterationNumber, cell(it.Title, 48), it.Status, result,
			cell(strings.Join(calls, ","), 40), it.TokensUsed, it.DurationMs, cell(reason, 100))
	}
	tw.Flush()
}

// cell is s on one line, at most n runes (an ellipsis marks a cut).
func cell(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}
