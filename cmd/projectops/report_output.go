package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
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
			return fmt.Sprintf("projectops report: %d recorded, %d sent", p.latest.Recorded, p.latest.Sent)
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
	fmt.Fprintf(p.w, "\rprojectops: %d recorded, %d sent, %d chunks in flight%s\x1b[K", pr.Recorded, pr.Sent, pr.InFlight, throttled)
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
		fmt.Fprintf(w, "projectops: %s; NOT reported: %v\n", counts, errText(out.Err))
	case out.Run != nil:
		fmt.Fprintf(w, "projectops: %s; run %s %s, result %s (%d stored, pass rate %.1f%%)\n", counts, out.Run.RunID,
			out.Run.Status, out.Run.Result, summaryTotal(out.Run), 100*summaryRate(out.Run))
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
		fmt.Fprintf(stderr, "projectops report: uploading the raw file: %v\n", errText(err))
	}
	return err
}

// runResume sends what a spool directory holds and finalizes the runs.
func runResume(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flagSet("projectops report resume", stderr)
	dir := fs.String("spool", "", "spool `dir` to send (default $PROJECTOPS_SPOOL_DIR or the temp dir's)")
	if code, ok := parse(fs, args, stderr); !ok {
		return code
	}
	if *dir == "" {
		*dir = ingest.DefaultSpoolDir(os.Getenv)
	}
	client, err := projectops.NewClient()
	if err != nil {
		fmt.Fprintf(stderr, "projectops report resume: %v\n", errText(err))
		return 1
	}
	res, err := ingest.Resume(ctx, client.Ingest, *dir)
	for _, r := range res {
		if r.Err != nil {
			fmt.Fprintf(stderr, "projectops: run %s: %v (files kept)\n", r.ExternalRunID, errText(r.Err))
			continue
		}
		fmt.Fprintf(stdout, "projectops: run %s (%s): %d results re-sent; %s, result %s (%d stored)\n", r.Run.RunID,
			r.ExternalRunID, r.Resent, r.Run.Status, r.Run.Result, summaryTotal(r.Run))
	}
	if len(res) == 0 && err == nil {
		fmt.Fprintf(stdout, "projectops: nothing to resume in %s\n", *dir)
	}
	if err != nil {
		fmt.Fprintf(stderr, "projectops report resume: %v\n", errText(err))
		return 1
	}
	return 0
}

func flagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parse parses args; ok is false when the command should exit with code.
func parse(fs *flag.FlagSet, args []string, stderr io.Writer) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2, false
	}
	return 0, true
}
