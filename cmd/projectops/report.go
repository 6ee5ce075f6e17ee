package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
	"github.com/spf13/cobra"
)

// stdin is the commands' standard input; tests replace it.
var stdin io.Reader = os.Stdin

type reportFlags struct {
	suite, extRunID, notes, spool string
	junit, jest, vitest           string
	upload, strict, quiet         bool
	minPassRate                   float64
}

// newReportCmd sends test results to the service: a go test -json stream
// on stdin, the results of a command run after "--", or a JUnit, Jest or
// Vitest file. "report resume" re-sends spooled results.
func newReportCmd(a *app) *cobra.Command {
	var f reportFlags
	cmd := &cobra.Command{
		Use:   "report [flags] [-- CMD [ARGS...]]",
		Short: "Send go test -json, JUnit, Jest or Vitest results to a run",
		Long: `Sends test results to an eval run, in chunks, idempotently:

  go test -json ./... | projectops report [flags]
  projectops report [flags] -- go test ./...
  projectops report [flags] --junit FILE | --jest FILE | --vitest FILE
  projectops report resume [--spool DIR]

While reading go test output it prints failing tests with their output and a
closing summary (-q: the summary alone); that text is redacted as the results
it sends and spools are (the API key in any spelling, sk_ tokens, credential headers, bearer
tokens, URL credentials, tunnel ?k= secrets). Input that is not what the flags say
(plain go test text, a terminal on stdin, an unreadable file) is refused with
exit 2 and no run is created; a go test stream in which no test ran (no test
files, -run matching none) or every test was skipped creates no run either,
and exits 0. --project defaults to $PROJECTOPS_PROJECT, else
"default". With --json the summary is a JSON object on stdout, also when CMD
cannot start (its error field says why).

Exit status: 0 the tests passed; 1 they failed (the run's verdict when it was
reported; otherwise, as when a chunked report found the run already complete,
any failed test, or under --min-pass-rate their pass rate; a report sent whole
cannot tell a complete run it reused, so that run's verdict decides, with a note
when its counts are not the report's); with -- CMD, CMD's own status; 2 bad
input, or with --strict a reporting failure (by default a reporting failure
never changes the status: the results are spooled for "report resume").

After an interrupt (Ctrl-C, SIGTERM) it stops -- CMD and, on Linux, what CMD
started and still runs in report's session (not a daemon that left it):
SIGINT, as Ctrl-C sends it, so the tests can still write (to CMD and to what is
still in report's process group, as a terminal's Ctrl-C reaches them, not to
what a command put in a group of its own), then a kill after the grace. That includes a background job that was in CMD's tree when the interrupt
came and whose parent the interrupt ended (report adopts it and reaps it), but
no other process: not one CMD's tree left before the interrupt (it is init's,
as without report), nor one report's process had before CMD (a server the
shell started before exec'ing projectops). Ctrl-C at a terminal reaches
CMD's processes as it reaches report: a job whose parent it ends before report
has acted is init's, as without report (an interrupt sent to report alone, as
"kill -TERM PID" sends it, is always in time). It reads what the tests still write for at most 10s (cut there, before the
tests ended, it exits 1; a read of stdin waiting on input that stays open is not
cut), sends it for at most 10s more, then stops and leaves the rest in the spool
for "report resume"; a second interrupt ends it at once. A reader of its output that goes
away ("| head") stops the text (with --json, the summary object), not the
report or its exit status.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if n := cmd.ArgsLenAtDash(); n > 0 || (n < 0 && len(args) > 0) {
				return usagef("unexpected argument %q (a command to run goes after --)", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("min-pass-rate") && !(f.minPassRate >= 0 && f.minPassRate <= 100) {
				return usagef("--min-pass-rate must be a percentage from 0 to 100, got %v", f.minPassRate)
			}
			var cmdArgs []string
			if cmd.ArgsLenAtDash() == 0 {
				if len(args) == 0 {
					return usagef("no command after --")
				}
				cmdArgs = args
			}
			return a.report(f, cmdArgs)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.suite, "suite", "", "suite `name` (default: the source: \"go test\", \"junit\", \"jest\", \"vitest\")")
	fl.StringVar(&f.extRunID, "external-run-id", "", "external run `id` (default $PROJECTOPS_EXTERNAL_RUN_ID, the CI job, or random)")
	fl.StringVar(&f.notes, "notes", "", "run notes")
	fl.StringVar(&f.spool, "spool", "", "spool `dir` for unsent results (default $PROJECTOPS_SPOOL_DIR or a temp dir)")
	fl.StringVar(&f.junit, "junit", "", "read a JUnit XML `file` (- for stdin)")
	fl.StringVar(&f.jest, "jest", "", "read a Jest JSON `file` (- for stdin)")
	fl.StringVar(&f.vitest, "vitest", "", "read a Vitest JSON `file` (- for stdin)")
	fl.BoolVar(&f.upload, "upload", false, "also upload the raw file (through an upload URL) when it holds results")
	fl.BoolVar(&f.strict, "strict", false, "exit 2 when reporting fails (by default it never changes the exit status)")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "the summary alone: no failing tests' output, no progress line")
	fl.Float64Var(&f.minPassRate, "min-pass-rate", -1, "minimum pass rate in `percent` for the run to pass (service default 100)")
	cmd.MarkFlagsMutuallyExclusive("junit", "jest", "vitest")
	cmd.AddCommand(newResumeCmd(a))
	return cmd
}

func (a *app) report(f reportFlags, cmdArgs []string) error {
	if os.Getenv("GOGC") == "" {
		// The reporter's live heap is small and bounded (a few chunks), so
		// the default target collects every few megabytes of a stream
		// that allocates as it parses; a wider one costs tens of MiB and
		// saves a tenth of report's CPU. GOGC, when set, wins.
		debug.SetGCPercent(400)
	}
	file := f.junit + f.jest + f.vitest // at most one is set
	if file != "" && cmdArgs != nil {
		return usagef("give one source: stdin, a command after --, or one of --junit/--jest/--vitest")
	}
	if f.upload && file == "" {
		return usagef("--upload needs --junit, --jest or --vitest")
	}
	project := orDefault(a.project, ingest.DefaultProject)
	client, err := a.client()
	if err != nil {
		return err
	}
	return a.reportSource(client, project, f, cmdArgs)
}

// reportSource reads the chosen source into a reporter and prints the
// summary.
func (a *app) reportSource(client *projectops.Client, project string, f reportFlags, cmdArgs []string) error {
	ctx, stdout, stderr := a.ctx, a.stdout, a.stderr
	// A read blocked on input that stays open (stdin, from the first
	// look at it on) is not interrupted: after a first interrupt, a second
	// one ends the process.
	stopRelease := context.AfterFunc(ctx, releaseSignals)
	defer stopRelease()
	// What the tests print is data without --json; with it, stdout is the
	// summary object alone and the tests' text goes to stderr.
	text := stdout
	if a.json {
		text = stderr
	}
	// The tests' text is a courtesy; the results and the exit status are
	// the report. "report | head" must not die of SIGPIPE (nothing sent,
	// nothing spooled, the status lost): catching it (not ignoring it,
	// which -- CMD would inherit) makes the write fail with EPIPE, and the
	// text stops at the first failed write while the report goes on.
	catchSIGPIPE.Do(func() { signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE) })
	text = &bestEffort{stickyWriter: stickyWriter{w: text}, stderr: stderr}
	// Echoed redacted as the results are sent and spooled, and with the
	// key masked whatever its shape.
	masked := &maskWriter{w: text, redact: client.Ingest.RedactText, secret: apiKeySecret()}
	text = masked
	// And so are the build errors the stream carries, printed on stderr.
	buildText := &maskWriter{w: stderr, redact: client.Ingest.RedactText, secret: apiKeySecret()}
	format, file := "go test", ""
	for _, c := range []struct{ name, file string }{{"junit", f.junit}, {"jest", f.jest}, {"vitest", f.vitest}} {
		if c.file != "" {
			format, file = c.name, c.file
		}
	}
	var in io.Reader = stdin
	stopSaying := func() {} // ends the interrupt's acknowledgement once reading is over
	if file == "" && cmdArgs == nil {
		var err error
		if in, err = goTestInput(stdin); err != nil {
			return usageError{err}
		}
		// Said at once: a read waiting on input that stays open is not
		// cut short, so the interrupt may otherwise seem lost.
		said := make(chan struct{})
		stop := context.AfterFunc(ctx, func() {
			defer close(said)
			notef(stderr, reportPath, "interrupted: reading what the tests still write for up to %s "+
				"(a read waiting on open input is not cut: interrupt again to stop at once)", reportInterruptGrace)
		})
		stopSaying = sync.OnceFunc(func() {
			if !stop() {
				<-said // said in full before what follows
			}
		})
		defer stopSaying()
	}
	// The summary line reports failures; the reporter's own warning would
	// repeat it.
	opt := ingest.ReporterOptions{Project: project, SpoolDir: f.spool, Strict: f.strict, Logger: slog.New(slog.DiscardHandler),
		Run: ingest.RunParams{SuiteName: orDefault(f.suite, format), ExternalRunID: f.extRunID, Notes: f.notes,
			Framework: strings.ReplaceAll(format, " ", "")}}
	if a.verbose {
		opt.Logger = a.logger()
	}
	if f.minPassRate >= 0 {
		opt.Run.PassCriteria = &ingest.PassCriteria{MinimumPassRate: f.minPassRate}
	}
	prog := newProgress(stderr, f.quiet)
	defer prog.stop() // ends the heartbeat on every return
	opt.Progress = prog.update
	if _, err := ingest.NewReporter(client.Ingest, opt); err != nil { // the options, checked up front
		return usageError{err}
	}
	// The options are checked before the file is uploaded: a run refused
	// up front would leave an upload no run refers to.
	if file != "" {
		var fh *os.File
		var err error
		if file == "-" {
			var done func()
			if fh, done, err = stdinResultsFile(ctx); err == nil {
				defer done()
			}
		} else if fh, err = os.Open(file); err == nil {
			defer fh.Close()
		}
		if err != nil {
			return usageError{err}
		}
		in = fh
		// A file is read through once before anything is sent: a
		// malformed one (cut short, not the format) is refused whole,
		// instead of leaving a run with the results before the break.
		fst, err := checkFile(ctx, format, fh)
		if err != nil {
			return usageError{fmt.Errorf("reading %s: %w; nothing was reported", format, err)}
		}
		// Only a file that yields results makes a run, whose notes name
		// the upload: one with none (refused, or all skipped) is not
		// uploaded, which would leave an artifact no run refers to.
		if f.upload && fst.Passed+fst.Failed > 0 {
			if err := uploadArtifact(ctx, client, project, format, fh, &f.notes, stderr); err != nil && f.strict {
				return err
			}
			opt.Run.Notes = f.notes
		}
	}
	rep := &lazyReporter{make: func() (*ingest.Reporter, error) { return ingest.NewReporter(client.Ingest, opt) }}
	// An interrupt stops the command (-- CMD) at once, but reading goes on
	// for reportInterruptGrace (go test writes the interrupted tests'
	// failures as it exits), and sending what was read for as long again.
	rctx, rcancel := closeContext(ctx, reportInterruptGrace)
	defer rcancel()
	code := 0
	var st ingest.SourceStats
	var readErr error
	switch {
	case cmdArgs != nil:
		st, code, readErr = runCommand(ctx, rctx, cmdArgs, rep, text, stderr, buildText, f.quiet)
		if ns, ok := errors.AsType[notStarted](readErr); ok {
			// Nothing ran, so nothing is reported; --json still gives
			// its one summary object, with the reason in its error.
			notef(stderr, reportPath, "%s", ns.why)
			if a.json {
				if err := writeSummaryJSON(stdout, reportSummary{Error: ns.why}); err != nil {
					return err
				}
			}
			return codeError{code}
		}
	case format == "junit":
		st, readErr = ingest.ReadJUnit(rctx, in, rep)
	case format == "jest":
		st, readErr = ingest.ReadJest(rctx, in, rep)
	case format == "vitest":
		st, readErr = ingest.ReadVitest(rctx, in, rep)
	default:
		// Failing tests and their output as they end, then the summary
		// (gotestsum's default); -q keeps the summary alone.
		opt := ingest.GoTestOptions{Passthrough: text}
		var plain *plainText
		if !f.quiet {
			plain = newPlainText(text, buildText)
			opt.OnEvent = plain.event
		}
		st, readErr = ingest.ReadGoTest(rctx, in, rep, opt)
		if plain != nil {
			plain.finish()
		}
	}
	stopSaying()
	_ = masked.Flush() // the tests' last line, before the summary
	_ = buildText.Flush()
	cut := false // reading stopped at the grace: the tests had not ended
	if readErr != nil && ctx.Err() != nil && rctx.Err() != nil && errors.Is(readErr, context.Canceled) {
		// What was read is the report, not a reading failure; but tests
		// still running then never reported, so the gate cannot pass.
		notef(stderr, reportPath, "interrupted: stopped reading after %s, before the tests ended", reportInterruptGrace)
		readErr, cut = nil, true
	}
	if readErr != nil && rep.rep == nil && cmdArgs == nil {
		// A file or stream that yields nothing usable: no run is made.
		return usageError{fmt.Errorf("reading %s: %w; nothing was reported", format, readErr)}
	}
	rcancel()
	// The close gets its own grace, from now if the interrupt came while
	// reading: a long read must not leave it none.
	cctx, cancel := closeContext(ctx, reportInterruptGrace)
	defer cancel()
	if ctx.Err() != nil {
		notef(stderr, reportPath, "interrupted: sending what was read, for at most %s", reportInterruptGrace)
	}
	out, cerr := rep.close(cctx)
	stopped := cctx.Err() != nil
	cancel()
	prog.done()
	if stopped {
		// The summary below names the spool that keeps what was not stored.
		notef(stderr, reportPath, "interrupted: stopped waiting for the service after %s", reportInterruptGrace)
	}
	if out == nil && readErr == nil && cmdArgs == nil {
		// Valid input with no result, its tests all skipped or, in a go
		// test stream, none run (no test files, -run matching none), is a
		// run in which nothing failed, not bad input: nothing to store,
		// exit 0. Input with no event at all is refused below.
		if st.Skipped > 0 || (format == "go test" && st.Events > 0) {
			if a.json {
				if err := writeSummaryJSON(stdout, reportJSON(st, nil)); err != nil {
					return err
				}
			}
			nothingReported(stderr, st)
			if cut {
				return gateError{}
			}
			return nil
		}
		return usageError{fmt.Errorf("no test results in the %s input; nothing was reported", format)}
	}
	if out == nil && readErr == nil && cmdArgs != nil {
		// CMD's status stands, but the summary still says why no run was
		// made, as it does for the same stream piped in.
		if st.Skipped > 0 || st.Events > 0 {
			nothingReported(stderr, st)
		} else {
			notef(stderr, reportPath, "no go test events in the output of %s; nothing was reported (report reads go test -json)", cmdArgs[0])
		}
	}
	printSummary(stderr, st, out) // first: where the run went, whatever stdout does
	if a.json {
		if err := writeSummaryJSON(stdout, reportJSON(st, out)); err != nil {
			return err
		}
	}
	switch {
	case readErr != nil:
		return fmt.Errorf("reading %s: %w", format, readErr)
	case cerr != nil && f.strict && out != nil && out.Err != nil:
		// --strict: a reporting failure fails the command; the summary
		// above already said why.
		return codeError{exitError}
	case cerr != nil && f.strict:
		return cerr
	case cmdArgs != nil:
		if code != 0 {
			return codeError{code}
		}
		if cut {
			return gateError{}
		}
		return nil
	case cut || reportFailed(st, out, f.minPassRate):
		return gateError{}
	}
	return nil
}

// nothingReported says why valid input stored no run: its tests were all
// skipped, or none ran.
func nothingReported(stderr io.Writer, st ingest.SourceStats) {
	if st.Skipped > 0 {
		notef(stderr, reportPath, "0 passed, 0 failed, %d skipped; nothing to report", st.Skipped)
		return
	}
	notef(stderr, reportPath, "0 passed, 0 failed, 0 skipped; nothing to report: no test ran in the go test input (no test files, or -run matched none)")
}

// reportInterruptGrace bounds the reading, and then the sending, that
// follow an interrupt: the tunnel's bound on its revoke. A variable so
// that tests can shorten it.
var reportInterruptGrace = closeTimeout

// closeContext is the context the input is read with, and then the one
// the reporter is closed with. An interrupt (ctx ending) does not end it
// at once, since what the tests still write and what was read are worth
// sending, but ends it grace later: a stalled stream or service must not
// keep the process, and the spool keeps what was not stored for "report
// resume". The goroutine ends with cancel.
func closeContext(ctx context.Context, grace time.Duration) (context.Context, context.CancelFunc) {
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	go func() {
		select {
		case <-ctx.Done():
		case <-cctx.Done():
			return
		}
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-t.C:
			cancel()
		case <-cctx.Done():
		}
	}()
	return cctx, cancel
}

// reportFailed is the gate of a report: whether any test failed, or the
// run's verdict when it was stored and failed. Under a pass criterion
// (--min-pass-rate, minPassRate >= 0) the verdict alone decides. A failing
// test fails the gate even when the service's verdict is an earlier run's
// (a reused external run id whose run had ended keeps its results, not
// these). When the verdict is not these results' (the reporter knows the
// run was reused complete) or there is none (reporting failed), the tests
// decide: under a criterion by their own pass rate, as the service would
// have judged them and as its reporter's local fallback does.
func reportFailed(st ingest.SourceStats, out *ingest.Outcome, minPassRate float64) bool {
	criterion := minPassRate >= 0
	stored := out != nil && out.Err == nil && !out.Reused && out.Run != nil && out.Run.Result != ""
	switch {
	case stored && criterion:
		return out.Run.Result != "passed"
	case stored && out.Run.Result != "passed":
		return true
	case criterion:
		// As the service judges a run: some results, and a pass rate
		// that meets the minimum (29 of 100 is 28.999…% in floating point).
		n := st.Passed + st.Failed
		return n == 0 || float64(st.Passed)/float64(n)*100 < minPassRate-1e-9
	}
	return st.Failed > 0
}

// runCommand runs cmdArgs, passing its output through and reading its go
// test -json events. "go test" without -json gets -json added, and what go
// test would have printed is rendered from the events (see plainText),
// its build errors to buildText.
func runCommand(ctx, readCtx context.Context, cmdArgs []string, rec ingest.Recorder, stdout, stderr, buildText io.Writer, quiet bool) (ingest.SourceStats, int, error) {
	added := false
	if filepath.Base(cmdArgs[0]) == "go" && len(cmdArgs) > 1 && cmdArgs[1] == "test" && !hasJSONFlag(cmdArgs[2:]) {
		cmdArgs = slices.Insert(slices.Clone(cmdArgs), 2, "-json")
		added = true
	}
	cmd := exec.CommandContext(ctx, cmdArgs[0], cmdArgs[1:]...)
	// What an interrupt orphans of CMD's tree is report's to end (Linux);
	// released when CMD is done.
	var orph orphans
	defer orph.release()
	interruptible(ctx, cmd, &orph)
	cmd.Stderr = stderr
	if f, ok := unwrapWriter(stderr).(*os.File); ok {
		// A file is handed to the command as it is (the kernel orders the
		// writes): through the lock, exec would copy from a pipe that a
		// child of the command may hold open long after it is killed.
		cmd.Stderr = f
	}
	cmd.Stdin = stdin
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return ingest.SourceStats{}, 1, err
	}
	if err := cmd.Start(); err != nil {
		// As a shell: 127 for a command not found, 126 for one that
		// cannot run; nothing ran, so there is nothing to report.
		code := 126
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
			code = 127
		}
		why := err
		if u := errors.Unwrap(err); u != nil { // the reason, not exec's restatement of the name
			why = u
		}
		return ingest.SourceStats{}, code, notStarted{fmt.Sprintf("cannot run %s: %v", cmdArgs[0], errText(why))}
	}
	// Interrupted, the command has the grace to end; still running then,
	// it is killed with what it started.
	stopKill := context.AfterFunc(readCtx, func() { killTree(cmd, &orph) })
	defer stopKill()
	opt := ingest.GoTestOptions{}
	var src io.Reader = pipe
	var text *plainText
	if added {
		// Print what the command would have printed without -json (-q:
		// the summary alone, as for input on stdin).
		opt.Passthrough = stdout
		if !quiet {
			text = newPlainText(stdout, buildText)
			opt.OnEvent = text.event
			if verbose(cmdArgs) {
				opt.OnEvent, opt.Output = nil, stdout // -v text is the events' text
			}
		}
	} else {
		src = io.TeeReader(pipe, stdout) // unchanged, byte for byte
	}
	// Reading ends at the grace even while a child of the killed command
	// holds the output open and idle: the pipe is closed under the read.
	stopClose := context.AfterFunc(readCtx, func() { _ = pipe.Close() })
	st, readErr := ingest.ReadGoTest(readCtx, src, rec, opt)
	stopClose()
	if readErr != nil && readCtx.Err() != nil {
		readErr = readCtx.Err() // cut at the grace, not a reading failure
	}
	if text != nil && opt.OnEvent != nil {
		text.finish()
	}
	// Let the command finish writing, unless reading was cut at the grace:
	// the command is killed then, and whatever still holds its output (a
	// child of it) is not waited for.
	if readCtx.Err() == nil {
		_, _ = io.Copy(io.Discard, src)
	}
	waitErr := cmd.Wait()
	if ctx.Err() != nil {
		// Interrupted: what CMD left behind ends by the grace too.
		endOrphans(readCtx, cmd, &orph)
	}
	code := 0
	if err := waitErr; err != nil {
		var ee *exec.ExitError
		switch ps := cmd.ProcessState; {
		case errors.As(err, &ee):
		case ps != nil && ps.Exited():
			// It had exited on its own when the interrupt came: Wait
			// reports the context, but the status is the command's.
			return st, ps.ExitCode(), readErr
		default:
			return st, 1, err
		}
		code = ee.ExitCode()
		if code < 0 { // killed by a signal: 128+n, as a shell reports it
			code = 1
			if ws, ok := ee.Sys().(interface{ Signal() syscall.Signal }); ok {
				code = 128 + int(ws.Signal())
			}
			notef(stderr, reportPath, "%s: %v", cmdArgs[0], ee)
		}
	}
	return st, code, readErr
}

// catchSIGPIPE registers report's SIGPIPE catch once per process.
var catchSIGPIPE sync.Once

// bestEffort writes to w until a write fails, then drops what follows,
// reporting success: a reader that went away does not stop a report. A
// failure other than a closed reader (a full disk) is said once on stderr.
type bestEffort struct {
	stickyWriter
	stderr io.Writer
}

func (b *bestEffort) Write(p []byte) (int, error) {
	if b.err == nil {
		if _, err := b.stickyWriter.Write(p); err != nil && !errors.Is(err, syscall.EPIPE) {
			notef(b.stderr, reportPath, "the tests' output is lost from here: %v", err)
		}
	}
	return len(p), nil
}

// notStarted is a command that could not start, and why (its name, and
// what exec said), as report prints it.
type notStarted struct{ why string }

func (e notStarted) Error() string { return e.why }

// verbose reports a -v flag among go test's flags.
func verbose(args []string) bool {
	for _, a := range args[2:] {
		if a == "-args" || a == "--args" {
			return false
		}
		if a == "-v" || a == "--v" || a == "-v=true" || a == "--v=true" {
			return true
		}
	}
	return false
}

func hasJSONFlag(args []string) bool {
	for _, a := range args {
		if a == "-json" || a == "--json" || strings.HasPrefix(a, "-json=") || strings.HasPrefix(a, "--json=") {
			return true
		}
		if a == "-args" || a == "--args" {
			return false
		}
	}
	return false
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// checkFile parses a results file with a recorder that keeps nothing,
// rewinds it, and returns what it holds.
func checkFile(ctx context.Context, format string, fh *os.File) (ingest.SourceStats, error) {
	read := map[string]func(context.Context, io.Reader, ingest.Recorder) (ingest.SourceStats, error){
		"junit": ingest.ReadJUnit, "jest": ingest.ReadJest, "vitest": ingest.ReadVitest}[format]
	st, err := read(ctx, fh, discard{})
	if err != nil {
		return st, err
	}
	_, err = fh.Seek(0, io.SeekStart)
	return st, err
}

// discard is a Recorder that keeps nothing.
type discard struct{}

func (discard) Record(context.Context, ingest.Result) error { return nil }
