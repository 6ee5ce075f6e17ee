package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
)

// stdin is the report command's input; tests replace it.
var stdin io.Reader = os.Stdin

// EnvProject is the default for --project.
const envProject = "PROJECTOPS_PROJECT"

type reportFlags struct {
	project, suite, extRunID, notes, spool string
	junit, jest, vitest                    string
	upload, strict, quiet                  bool
	minPassRate                            float64
}

// runReport sends test results to the service: a go test -json stream on
// stdin, the results of a command run after "--", or a JUnit, Jest or
// Vitest file. "report resume" re-sends spooled results.
func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "resume" {
		return runResume(ctx, args[1:], stdout, stderr)
	}
	var cmdArgs []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, cmdArgs = args[:i], args[i+1:]
	}
	fs := flag.NewFlagSet("projectops report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f reportFlags
	fs.StringVar(&f.project, "project", orEnv(envProject, ingest.DefaultProject), "project `id` (default $"+envProject+" or \"default\")")
	fs.StringVar(&f.suite, "suite", "", "suite `name` (default: the source: \"go test\", \"junit\", \"jest\", \"vitest\")")
	fs.StringVar(&f.extRunID, "external-run-id", "", "external run `id` (default $PROJECTOPS_EXTERNAL_RUN_ID, the CI job, or random)")
	fs.StringVar(&f.notes, "notes", "", "run notes")
	fs.StringVar(&f.spool, "spool", "", "spool `dir` for unsent results (default $PROJECTOPS_SPOOL_DIR or a temp dir)")
	fs.StringVar(&f.junit, "junit", "", "read a JUnit XML `file`")
	fs.StringVar(&f.jest, "jest", "", "read a Jest JSON `file`")
	fs.StringVar(&f.vitest, "vitest", "", "read a Vitest JSON `file`")
	fs.BoolVar(&f.upload, "upload", false, "also upload the raw file through an upload URL")
	fs.BoolVar(&f.strict, "strict", false, "exit 1 when reporting fails (by default it never changes the exit status)")
	fs.BoolVar(&f.quiet, "quiet", false, "the summary alone: no failing tests' output, no progress line")
	fs.BoolVar(&f.quiet, "q", false, "short for -quiet")
	fs.Float64Var(&f.minPassRate, "min-pass-rate", -1, "minimum pass rate in `percent` for the run to pass (service default 100)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage:")
		fmt.Fprintln(stderr, "  go test -json ./... | projectops report [flags]")
		fmt.Fprintln(stderr, "  projectops report [flags] -- go test ./...")
		fmt.Fprintln(stderr, "  projectops report [flags] --junit FILE | --jest FILE | --vitest FILE")
		fmt.Fprintln(stderr, "  projectops report resume --spool DIR")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	files := 0
	for _, v := range []string{f.junit, f.jest, f.vitest} {
		if v != "" {
			files++
		}
	}
	if fs.NArg() > 0 || files > 1 || (files == 1 && cmdArgs != nil) || (cmdArgs != nil && len(cmdArgs) == 0) || (f.upload && files == 0) {
		fmt.Fprintln(stderr, "projectops report: give one source: stdin, a command after --, or one of --junit/--jest/--vitest (--upload needs a file)")
		fs.Usage()
		return 2
	}
	client, err := projectops.NewClient()
	if err != nil {
		fmt.Fprintf(stderr, "projectops report: %v\n", errText(err))
		return 1
	}
	return reportSource(ctx, client, f, cmdArgs, stdout, stderr)
}

// reportSource reads the chosen source into a reporter and prints the
// summary. It returns the exit code.
func reportSource(ctx context.Context, client *projectops.Client, f reportFlags, cmdArgs []string, stdout, stderr io.Writer) int {
	format, file := "go test", ""
	for _, c := range []struct{ name, file string }{{"junit", f.junit}, {"jest", f.jest}, {"vitest", f.vitest}} {
		if c.file != "" {
			format, file = c.name, c.file
		}
	}
	var in io.Reader = stdin
	if file == "" && cmdArgs == nil {
		var err error
		if in, err = goTestInput(stdin); err != nil {
			fmt.Fprintf(stderr, "projectops report: %v\n", errText(err))
			return 2
		}
	}
	if file != "" {
		fh, err := os.Open(file)
		if err != nil {
			fmt.Fprintf(stderr, "projectops report: %v\n", errText(err))
			return 2
		}
		defer fh.Close()
		in = fh
		if f.upload {
			if err := uploadArtifact(ctx, client, f.project, format, fh, &f.notes, stderr); err != nil && f.strict {
				return 1
			}
		}
	}
	// The summary line reports failures; the reporter's own warning would
	// repeat it.
	opt := ingest.ReporterOptions{Project: f.project, SpoolDir: f.spool, Strict: f.strict, Logger: slog.New(slog.DiscardHandler),
		Run: ingest.RunParams{SuiteName: orDefault(f.suite, format), ExternalRunID: f.extRunID, Notes: f.notes,
			Framework: strings.ReplaceAll(format, " ", "")}}
	if f.minPassRate >= 0 {
		opt.Run.PassCriteria = &ingest.PassCriteria{MinimumPassRate: f.minPassRate}
	}
	prog := newProgress(stderr, f.quiet)
	defer prog.stop() // ends the heartbeat on every return
	opt.Progress = prog.update
	if _, err := ingest.NewReporter(client.Ingest, opt); err != nil { // the options, checked up front
		fmt.Fprintf(stderr, "projectops report: %v\n", errText(err))
		return 2
	}
	rep := &lazyReporter{make: func() (*ingest.Reporter, error) { return ingest.NewReporter(client.Ingest, opt) }}
	code := 0
	var st ingest.SourceStats
	var readErr error
	switch {
	case cmdArgs != nil:
		st, code, readErr = runCommand(ctx, cmdArgs, rep, stdout, stderr)
	case format == "junit":
		st, readErr = ingest.ReadJUnit(ctx, in, rep)
	case format == "jest":
		st, readErr = ingest.ReadJest(ctx, in, rep)
	case format == "vitest":
		st, readErr = ingest.ReadVitest(ctx, in, rep)
	default:
		// Failing tests and their output as they end, then the summary
		// (gotestsum's default); -q keeps the summary alone.
		opt := ingest.GoTestOptions{Passthrough: stdout}
		var text *plainText
		if !f.quiet {
			text = newPlainText(stdout, stderr)
			opt.OnEvent = text.event
		}
		st, readErr = ingest.ReadGoTest(ctx, in, rep, opt)
		if text != nil {
			text.finish()
		}
	}
	if readErr != nil && rep.rep == nil && cmdArgs == nil {
		// A file or stream that yields nothing usable: no run is made.
		fmt.Fprintf(stderr, "projectops report: reading %s: %v; nothing was reported\n", format, errText(readErr))
		return 2
	}
	out, cerr := rep.close(context.WithoutCancel(ctx))
	prog.done()
	if readErr != nil {
		fmt.Fprintf(stderr, "projectops report: reading %s: %v\n", format, errText(readErr))
		if code == 0 {
			code = 1
		}
	}
	if out == nil && readErr == nil && cmdArgs == nil {
		fmt.Fprintf(stderr, "projectops report: no test results in the %s input; nothing was reported\n", format)
		return 2
	}
	printSummary(stderr, st, out)
	if cerr != nil && code == 0 {
		code = 1 // Strict: a reporting failure fails the command
	}
	return code
}

// runCommand runs cmdArgs, passing its output through and reading its go
// test -json events. "go test" without -json gets -json added, and what go
// test would have printed is rendered from the events (see plainText).
func runCommand(ctx context.Context, cmdArgs []string, rec ingest.Recorder, stdout, stderr io.Writer) (ingest.SourceStats, int, error) {
	added := false
	if filepath.Base(cmdArgs[0]) == "go" && len(cmdArgs) > 1 && cmdArgs[1] == "test" && !hasJSONFlag(cmdArgs[2:]) {
		cmdArgs = slices.Insert(slices.Clone(cmdArgs), 2, "-json")
		added = true
	}
	cmd := exec.CommandContext(ctx, cmdArgs[0], cmdArgs[1:]...)
	cmd.Stderr = stderr
	cmd.Stdin = stdin
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return ingest.SourceStats{}, 1, err
	}
	if err := cmd.Start(); err != nil {
		return ingest.SourceStats{}, 1, err
	}
	opt := ingest.GoTestOptions{}
	var src io.Reader = pipe
	var text *plainText
	if added {
		// Print what the command would have printed without -json.
		text = newPlainText(stdout, stderr)
		opt.OnEvent, opt.Passthrough = text.event, stdout
		if verbose(cmdArgs) {
			opt.OnEvent, opt.Output = nil, stdout // -v text is the events' text
		}
	} else {
		src = io.TeeReader(pipe, stdout) // unchanged, byte for byte
	}
	st, readErr := ingest.ReadGoTest(ctx, src, rec, opt)
	if text != nil && opt.OnEvent != nil {
		text.finish()
	}
	_, _ = io.Copy(io.Discard, src) // let the command finish writing
	code := 0
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return st, 1, err
		}
		code = ee.ExitCode()
		if code < 0 {
			code = 1 // killed by a signal
		}
	}
	return st, code, readErr
}

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

func orEnv(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
