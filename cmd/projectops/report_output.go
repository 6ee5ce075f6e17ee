package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"reflect"
	"sync"
	"syscall"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
	"github.com/spf13/cobra"
)

// progress prints "results sent, chunks in flight" on one refreshed line,
// only when stderr is a terminal, at most ten times a second.
type progress struct {
	mu     sync.Mutex
	w      io.Writer
	on     bool
	last   time.Time
	shown  bool
	latest ingest.Progress // for the heartbeat off a terminal
	stop   func()
}

func newProgress(w io.Writer, quiet bool) *progress {
	p := &progress{w: w, on: !quiet && isTerminal(w), stop: func() {}}
	if !quiet {
		p.stop = heartbeat(w, func() string {
			p.mu.Lock()
			defer p.mu.Unlock()
			return fmt.Sprintf(reportPath+": %d recorded, %d sent", p.latest.Recorded, p.latest.Sent)
		})
	}
	return p
}

func (p *progress) update(pr ingest.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.latest = pr
	if !p.on {
		return
	}
	if time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.shown = time.Now(), true
	throttled := ""
	if pr.Throttled {
		throttled = " (rate limited: one at a time)"
	}
	fmt.Fprintf(p.w, "\r"+reportPath+": %d recorded, %d sent, %d chunks in flight%s\x1b[K", pr.Recorded, pr.Sent, pr.InFlight, throttled)
}

func (p *progress) done() {
	p.stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	p.on = false
}

// printSummary prints the one-line summary.
func printSummary(w io.Writer, st ingest.SourceStats, out *ingest.Outcome) {
	counts := fmt.Sprintf("%d passed, %d failed, %d skipped", st.Passed, st.Failed, st.Skipped)
	switch {
	case out == nil:
	case out.Err != nil:
		notef(w, reportPath, "%s; NOT reported: %v", counts, errText(out.Err))
	case out.Reused && out.Run != nil:
		notef(w, reportPath, "%s; NOT reported: run %s was already complete under this external run id "+
			"(result %s, an earlier report's); these results were not stored (use another --external-run-id)",
			counts, out.Run.RunID, out.Run.Result)
	case out.Run != nil:
		notef(w, reportPath, "%s; run %s %s, result %s (%d stored, pass rate %.1f%%)", counts, out.Run.RunID,
			out.Run.Status, out.Run.Result, summaryTotal(out.Run), 100*summaryRate(out.Run))
		if sum := out.Run.Summary; sum != nil && (sum.Total != out.Local.Total || sum.Passed != out.Local.Passed) {
			// A one-shot report cannot tell a run it created from one it
			// found complete: differing counts are the sign of the latter.
			notef(w, reportPath, "the run's counts (%d, %d passed) are not this report's (%d, %d passed): "+
				"its external run id may have been used by an earlier report, whose results it keeps",
				sum.Total, sum.Passed, out.Local.Total, out.Local.Passed)
		}
	}
}

func summaryTotal(r *ingest.RunResult) int {
	if r.Summary == nil {
		return 0
	}
	return r.Summary.Total
}

func summaryRate(r *ingest.RunResult) float64 {
	if r.Summary == nil {
		return 0
	}
	return r.Summary.PassRate
}

// uploadArtifact sends the raw file through a fresh upload URL and notes
// its storage id in the run's notes; the file is rewound for parsing.
func uploadArtifact(ctx context.Context, c *projectops.Client, project, format string, f *os.File, notes *string, stderr io.Writer) error {
	ct := map[string]string{"junit": "application/xml"}[format]
	if ct == "" {
		ct = "application/json"
	}
	u, err := c.Ingest.UploadURL(ctx, project)
	if err == nil {
		var up *ingest.Upload
		if up, err = c.Ingest.UploadArtifact(ctx, u.UploadURL, ct, f); err == nil {
			if *notes != "" {
				*notes += "\n"
			}
			*notes += format + " artifact: " + up.StorageID
		}
	}
	if _, serr := f.Seek(0, io.SeekStart); serr != nil && err == nil {
		err = serr
	}
	if err != nil {
		notef(stderr, reportPath, "uploading the raw file: %v", errText(err))
	}
	return err
}

// reportSummary is report's --json output.
type reportSummary struct {
	Passed  int               `json:"passed"`
	Failed  int               `json:"failed"`
	Skipped int               `json:"skipped"`
	Run     *ingest.RunResult `json:"run,omitempty"`
	// Reused: the run was already complete; these results were not stored.
	Reused bool `json:"reused,omitempty"`
	// Error is why the results were not reported; Spool holds them then.
	Error string `json:"error,omitempty"`
	Spool string `json:"spool,omitempty"`
}

// writeSummaryJSON prints report's --json summary. A reader that went
// away ("| head -0": EPIPE, SIGPIPE being caught) stops the output, not
// the report: the run was delivered and its verdict's status stands, as
// it does for the text; any other write failure (a full disk) is an error.
func writeSummaryJSON(w io.Writer, v reportSummary) error {
	if err := writeJSON(w, v); err != nil && !errors.Is(err, syscall.EPIPE) {
		return err
	}
	return nil
}

func reportJSON(st ingest.SourceStats, out *ingest.Outcome) reportSummary {
	r := reportSummary{Passed: st.Passed, Failed: st.Failed, Skipped: st.Skipped}
	if out != nil {
		r.Run, r.Spool, r.Reused = out.Run, out.SpoolPath, out.Reused
		if out.Err != nil {
			r.Error = errText(out.Err)
		}
	}
	return r
}

// newResumeCmd sends what a spool directory holds and finalizes the runs.
func newResumeCmd(a *app) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "resume [--spool DIR]",
		Short: "Re-send spooled results and finalize their runs",
		Long: `Re-sends the results a spool directory keeps (a report that could not deliver
them, or tests that recorded with ingest.TBRecorder) and finalizes their runs.
What it delivered is its output, on stdout (with --json, an array of runs).
Each run goes to the project it was recorded for: --project does not move it
(set $PROJECTOPS_PROJECT, or TBOptions.Project, when the tests run), and a run
recorded for another project than --project names is said so on stderr.
Widget HTML spooled beside the results (too large for a chunk) is uploaded;
one the service answers without storing it goes without its HTML (a visible
marker in its place, counted in the output; with -v, a warning on stderr
names its file), while any other failed upload keeps that run's files,
naming the widget file.
A damaged spool file (a disk error, an edit by hand) costs only its damaged
lines: they are skipped and said on stderr, by file and line number, never
their content; everything else is delivered. Once its run is finalized, the
file is moved aside to its name with .damaged added, kept for inspection
(remove it once inspected): no later resume sends or reports it again. A
file whose first line (its run record) is damaged belongs to no run: nothing
of it is sent, it is moved aside at once, and it is said on stderr only, not
in the --json array of runs.
Exit status: 0 when every spooled run was delivered, whatever their verdicts
(delivery is this command's job; the tests' gate was the report that ran
them); 2 when one could not be (its files are kept for another resume), or
when a delivered run's files could not be removed or moved aside (said on
stderr; the run counts as delivered, and a later resume finishes the
cleanup, reporting a damaged file it could not move aside once more, with
exit 3); 3 when everything was delivered but damaged lines were skipped
(only the resume that skipped them exits 3, unless the move aside failed).`,
		Args: exactArgs(0, ""),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dir == "" {
				dir = ingest.DefaultSpoolDir(os.Getenv)
			} else if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				// A mistyped --spool must not pass as "nothing to resume".
				return usagef("--spool %s: not a directory", dir)
			}
			client, err := a.client()
			if err != nil {
				return err
			}
			// The count of snapshots sent without their HTML is printed
			// below; the warning naming each file shows with -v.
			opt := ingest.ResumeOptions{Logger: slog.New(slog.DiscardHandler)}
			if a.verbose {
				opt.Logger = a.logger()
			}
			res, err := ingest.ResumeWithOptions(a.ctx, client.Ingest, dir, opt)
			if a.json {
				if jerr := writeJSON(a.stdout, resumeJSON(res)); jerr != nil {
					return jerr
				}
			}
			failed, damaged := 0, 0
			for _, r := range res {
				if cmd.Flags().Changed("project") && r.Project != a.project {
					// Scripts pass --project to every command: not refused,
					// but a run that does not go where it names is said so.
					notef(a.stderr, resumePath, "run %s goes to project %s, where it was recorded (--project %s does not move it)",
						r.ExternalRunID, r.Project, a.project)
				}
				for _, d := range r.Damaged {
					damaged++
					what := "the rest of the file was delivered with the run"
					switch {
					case r.Err != nil:
						what = "the run was not delivered; its files are kept for another resume"
					case d.MovedTo != "":
						what += "; the file is moved aside to " + d.MovedTo + " for inspection, and no later resume reads it (remove it once inspected)"
					}
					notef(a.stderr, resumePath, "run %s: spool file %s: %s skipped: %s", r.ExternalRunID, d.Path, damagedLines(d), what)
				}
				if r.Err != nil {
					failed++
					notef(a.stderr, resumePath, "run %s: %v (files kept)", r.ExternalRunID, errText(r.Err))
					continue
				}
				if !a.json {
					if r.CompletedRunID != "" {
						notef(a.stdout, resumePath, "run %s was complete without these results: they go to a new run", r.CompletedRunID)
					}
					var dropped string
					if r.Truncated > 0 {
						dropped = fmt.Sprintf(" (%d without their widget HTML: its upload stored nothing)", r.Truncated)
					}
					notef(a.stdout, resumePath, "run %s (%s): %d results re-sent%s; %s, result %s (%d stored)", r.Run.RunID,
						r.ExternalRunID, r.Resent, dropped, r.Run.Status, r.Run.Result, summaryTotal(r.Run))
				}
			}
			if len(res) == 0 && err == nil && !a.json {
				// The likeliest reasons after a TBRecorder's tests: go test
				// answered them from its cache, or they could not record.
				notef(a.stdout, resumePath, "nothing to resume in %s (tests recording with ingest.TBRecorder: run go test with -count=1, a cached package records nothing; a recording failure shows with go test -v)", dir)
			}
			// What belongs to no run (a damaged run record, a file that
			// could not be read or removed) is said here, whatever else
			// failed: the count of failed runs below must not hide it.
			var others []error
			for _, e := range splitErrors(unshown(err, res)) {
				var d *ingest.SpoolDamageError
				if !errors.As(e, &d) || !d.RunRecord {
					others = append(others, e)
					continue
				}
				damaged++
				where := "it is kept where it is"
				if d.MovedTo != "" {
					where = "it is moved aside to " + d.MovedTo + " for inspection (remove it once inspected)"
				}
				notef(a.stderr, resumePath, "spool file %s: line 1, its run record, is damaged: nothing of it can be sent; %s", d.Path, where)
			}
			switch {
			case failed > 0: // each failure is printed above: the error only counts them
				for _, e := range others {
					notef(a.stderr, resumePath, "%s", errText(e))
				}
				return fmt.Errorf("%d of %d runs not resumed", failed, len(res))
			case len(others) > 0:
				return errors.Join(others...)
			case damaged > 0:
				return damageError{fmt.Sprintf("%d damaged spool files: their damaged lines were skipped, everything else was delivered", damaged)}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "spool", "", "spool `dir` to send (default $PROJECTOPS_SPOOL_DIR or the temp dir's)")
	return cmd
}

// damagedLines says which lines of a damaged spool file were skipped.
func damagedLines(d *ingest.SpoolDamageError) string {
	if d.Lines > 1 {
		return fmt.Sprintf("%d damaged lines (the first: line %d)", d.Lines, d.Line)
	}
	return fmt.Sprintf("damaged line %d", d.Line)
}

// splitErrors returns the errors err joins, err alone when it joins none,
// nothing when it is nil.
func splitErrors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// unshown is Resume's err without what resume printed with res's runs:
// their damage, and the failures of the runs not delivered (which err
// wraps once each, "run X: ..."). Nil when nothing else is left.
func unshown(err error, res []ingest.ResumeResult) error {
	shown := map[*ingest.SpoolDamageError]bool{}
	for _, r := range res {
		for _, d := range r.Damaged {
			shown[d] = true
		}
	}
	var rest []error
	for _, e := range splitErrors(err) {
		if d, ok := e.(*ingest.SpoolDamageError); ok && shown[d] {
			continue
		}
		if runFailure(e, res) {
			continue
		}
		rest = append(rest, e)
	}
	return errors.Join(rest...)
}

// runFailure reports whether e wraps, directly, the error of one of res's
// runs. Identity, not errors.Is: a sentinel the run's error matches may
// also be in an unrelated error.
func runFailure(e error, res []ingest.ResumeResult) bool {
	inner := errors.Unwrap(e)
	if inner == nil || !reflect.TypeOf(inner).Comparable() {
		return false
	}
	for _, r := range res {
		if r.Err != nil && reflect.TypeOf(r.Err) == reflect.TypeOf(inner) && r.Err == inner {
			return true
		}
	}
	return false
}

// resumed is one run of resume's --json output.
type resumed struct {
	ExternalRunID string `json:"externalRunId"`
	// CompletedRunID is the run the spool was written for, when it was
	// complete without its results (they went to ExternalRunID).
	CompletedRunID string `json:"completedRunId,omitempty"`
	Resent         int    `json:"resent"`
	// Truncated counts the results re-sent without a spooled widget's
	// HTML, its upload having stored nothing.
	Truncated int               `json:"truncated"`
	Run       *ingest.RunResult `json:"run,omitempty"`
	Error     string            `json:"error,omitempty"`
	// Damaged lists the run's damaged spool files: their damaged lines
	// were skipped, and each file is moved aside once the run is delivered.
	Damaged []damagedSpool `json:"damaged,omitempty"`
}

// damagedSpool is a damaged spool file in resume's --json output.
type damagedSpool struct {
	File string `json:"file"`
	// MovedTo is where the file is kept, moved aside; empty while it
	// stays (its run was not delivered).
	MovedTo string `json:"movedTo,omitempty"`
	Line    int    `json:"line"`  // the first damaged line, from 1
	Lines   int    `json:"lines"` // how many are damaged
}

func resumeJSON(res []ingest.ResumeResult) []resumed {
	out := []resumed{}
	for _, r := range res {
		j := resumed{ExternalRunID: r.ExternalRunID, CompletedRunID: r.CompletedRunID, Resent: r.Resent, Truncated: r.Truncated, Run: r.Run}
		if r.Err != nil {
			j.Error = errText(r.Err)
		}
		for _, d := range r.Damaged {
			j.Damaged = append(j.Damaged, damagedSpool{File: d.Path, MovedTo: d.MovedTo, Line: d.Line, Lines: d.Lines})
		}
		out = append(out, j)
	}
	return out
}
