package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/jsonerr"
)

// evalRunFlags are eval run's flags.
type evalRunFlags struct {
	suite, file    string
	idempotencyKey string
	servers        []string
	waitFlags
}

func newEvalRunCmd(a *app) *cobra.Command {
	var f evalRunFlags
	cmd := &cobra.Command{
		Use:   "run (--suite ID | --file FILE) [--wait] [--junit FILE] [--summary FILE]",
		Short: "Create a run of a suite or a tests file; --wait gates on its verdict",
		Long: `Creates a run of a suite (--suite) or of a tests file (--file: a run request,
suiteName, serverIds, tests, ...; - reads stdin). With --wait it follows the run
(a live line on a terminal, a heartbeat line in CI logs, both on stderr), prints
its iterations and verdict, and can write JUnit XML and a Markdown summary
(to stdout with --junit - or --summary -: stdout then holds that report alone,
the iterations table and verdict go to stderr, and --json is refused).
A report file that cannot be written (its directory missing, a directory, no
write permission), or one file named by both --junit and --summary, is refused
before the run is created; one whose write still
fails after the run is said after the verdict, and the exit status is 2.
Failure reasons (which quote tool calls' arguments), there and in "eval
iterations" and "eval trace" (--json too), are redacted as "report" redacts
results: the API key (in any spelling), sk_ tokens, credential headers, bearer tokens, URL
credentials and tunnel ?k= secrets.
Interrupted before the service answered, it says that a run may have started
(and goes on), and the command that, sent again with the same idempotency key,
answers with that run's id: printed exactly (the same PROJECTOPS_API_KEY
assumed), or not at all when it would hold the API key or a key-shaped word.
--idempotency-key refuses control characters.
A run still going after --wait-timeout (10m by default, as the service's own
gate; 0 waits for good), or when an interrupt stops the wait, is left running,
and the command exits 2 printing the commands that follow it again (eval
status --wait RUN_ID) and cancel it; without --wait, it prints the first.
Every printed command is quoted word by word for the shell, names the base
URL (--base-url or $PROJECTOPS_BASE_URL) unless it is the hosted service, and
puts a -- before a RUN_ID starting with "-". A command holding the API key or
a key-shaped word (sk_ and 40 or more key characters, or 8 or more after no
letter or digit or after an escape such as \n or %20) is not printed: masked,
it would name another run.
Exit status with --wait: 0 passed, 1 failed, 2 error.`,
		Args: exactArgs(0, ""),
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.waitTimeoutSet = cmd.Flags().Changed("wait-timeout")
			return a.evalRun(f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.suite, "suite", "", "rerun the suite with this `id`")
	fl.StringVar(&f.file, "file", "", "run the tests in this JSON `file` (- reads standard input)")
	f.waitFlags.register(fl)
	fl.StringVar(&f.idempotencyKey, "idempotency-key", "", "`key` the service knows this run request by: sent again with the same key (and suite), it answers with the run it started instead of starting another (default: the file's idempotencyKey, else a new one)")
	fl.StringArrayVar(&f.servers, "server", nil, "saved server `id` to run against (repeatable; overrides the suite's or the file's, whose serverNames are then dropped; a --file run with tests and no suiteRerun saves it as the suite's selection)")
	return cmd
}

func (a *app) evalRun(f evalRunFlags) error {
	if (f.suite == "") == (f.file == "") {
		return usagef("give exactly one of --suite or --file")
	}
	if err := f.waitFlags.check(a.json); err != nil {
		return err
	}
	p := evals.RunParams{SuiteID: f.suite}
	if f.file != "" {
		var err error
		if p, err = readRunFile(a.ctx, f.file); err != nil {
			if a.ctx.Err() != nil {
				return err // interrupted while reading stdin
			}
			return usageError{err}
		}
	}
	if len(f.servers) > 0 {
		// The file's names described its own ids: paired with these by
		// position, a launch would save them as the suite's selection.
		p.ServerIDs, p.ServerNames = f.servers, nil
	}
	switch {
	case strings.IndexFunc(f.idempotencyKey, controlChar) >= 0 || !utf8.ValidString(f.idempotencyKey):
		// Sent as given, it could not be printed as a word that sends
		// it again (nor typed); not UTF-8, JSON would send another key.
		return usagef("--idempotency-key holds a control character or a byte that is not UTF-8; give a key of printable characters")
	case f.idempotencyKey != "" && p.IdempotencyKey != "" && f.idempotencyKey != p.IdempotencyKey:
		return usagef("--idempotency-key and the file's idempotencyKey differ; give one of them")
	case f.idempotencyKey != "":
		p.IdempotencyKey = f.idempotencyKey
	case p.IdempotencyKey == "":
		// The CLI's own key, not one the SDK makes unseen: an interrupt
		// can then say how to learn the id of a run the request started.
		p.IdempotencyKey = "projectops-cli-" + rand.Text()
	}
	ec, err := a.evalSetup()
	if err != nil {
		return err
	}
	rc, err := ec.c.Evals.Runs.Create(a.ctx, ec.project, p)
	if err != nil {
		// Only the interrupt's own cancellation: an answer the service
		// gave (a 400, the concurrent-run limit) is said as it is, even
		// when Ctrl-C came after it.
		if errors.Is(err, context.Canceled) && a.ctx.Err() != nil {
			// The request may have reached the service: a run it started
			// goes on, and costs what it costs, unseen.
			return pasteError{
				head: fmt.Sprintf("interrupted before the service answered; a run %smay have started and goes on until it ends or is cancelled; ", suiteWords(p)),
				text: resendText(commandBaseURL(ec.c), ec.project, f, p.IdempotencyKey),
			}
		}
		return err
	}
	if !f.wait {
		return ec.print(rc, func(w io.Writer) {
			// Following it by its id: this command sent again with --wait
			// would start another run.
			fmt.Fprintf(w, "run %s started (suite %s); follow it with: %s\n", maskedField(rc.RunID),
				maskedField(rc.SuiteID), ec.command("eval status", []string{"--wait"}, rc.RunID))
		})
	}
	return ec.follow(rc.RunID, f.waitFlags, true)
}

// readRunFile decodes a run request, rejecting unknown fields.
func readRunFile(ctx context.Context, path string) (evals.RunParams, error) {
	var p evals.RunParams
	var data []byte
	var err error
	if path == "-" {
		data, err = readStdin(ctx, 32<<20)
	} else {
		var f *os.File
		if f, err = os.Open(path); err != nil {
			return p, err
		}
		defer f.Close()
		data, err = readAll(ctx, io.LimitReader(f, 32<<20))
	}
	if err != nil {
		return p, err
	}
	// passCriteria shadows RunParams' own, so the one strict decode also
	// tells a missing (or null) minimumPassRate from 0: such an object sets
	// no threshold (the service's 100), while a decoded 0 re-sent would
	// pass every run.
	var f struct {
		evals.RunParams
		PassCriteria *struct {
			MinimumPassRate *float64 `json:"minimumPassRate"`
		} `json:"passCriteria"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return p, fmt.Errorf("%s: %w", path, jsonerr.Describe(data, err))
	}
	p = f.RunParams
	p.PassCriteria = nil
	if pc := f.PassCriteria; pc != nil && pc.MinimumPassRate != nil {
		p.PassCriteria = &evals.PassCriteria{MinimumPassRate: *pc.MinimumPassRate}
	}
	return p, nil
}

// resendText says the command that sends the request f made again, with
// its idempotency key, without following the run, and what it assumes;
// or why it is not printed. baseURL is commandBaseURL's.
func resendText(baseURL, project string, f evalRunFlags, key string) string {
	var args []string
	if f.suite != "" {
		args = append(args, "--suite", f.suite)
	} else {
		args = append(args, "--file", f.file)
	}
	for _, s := range f.servers {
		args = append(args, "--server", s)
	}
	// --base-url kept: sent elsewhere, the key would start a run there.
	cmd := commandLine(baseURL, project, "eval run", append(args, "--idempotency-key", key))
	if !cmd.pastable() {
		return "the command that sends it again is not printed: it holds the API key or a key-shaped word"
	}
	env := "PROJECTOPS_API_KEY"
	if baseURL == "" {
		// It names no base URL: one in the environment would send it
		// elsewhere.
		env += " and no PROJECTOPS_BASE_URL"
	}
	var also []string
	if f.file == "-" {
		also = append(also, "with the same input piped to it")
	}
	line := cmd.String()
	if strings.Contains(line, "$'") {
		also = append(also, "in bash or zsh, which read $'...' words")
	}
	return fmt.Sprintf("the same request with its key answers with that run (or starts it): %s "+
		"(with the same %s%s; then cancel the run with: %s)",
		line, env, strings.Join(append([]string{""}, also...), ", "), pasteCommand(commandLine(baseURL, project, "eval cancel", nil, "RUN_ID")))
}

// suiteWords names the suite a run request runs, as "of suite X ", or
// nothing when the request names none.
func suiteWords(p evals.RunParams) string {
	switch {
	case p.SuiteID != "":
		return "of suite " + maskedField(p.SuiteID) + " "
	case p.SuiteName != "":
		return "of suite " + maskedField(p.SuiteName) + " "
	}
	return ""
}

// iterations lists a run's iterations: [] under --json when there are
// none yet, never null.
func (ec *evalCmd) iterations(runID string, limit int) ([]evals.Iteration, error) {
	iters := []evals.Iteration{}
	for it, err := range ec.c.Evals.Runs.AllIterations(ec.ctx, ec.project, runID, &evals.IterationsParams{Limit: limit}) {
		if err != nil {
			return nil, err
		}
		it.Error = ec.redacted(it.Error) // printed where there is no failing step
		it.Title = ec.redacted(it.Title) // a user's text, printed in every table
		iters = append(iters, it)
	}
	return iters, nil
}

// verdictOf is the run's result, or "no verdict" while it has none.
func verdictOf(r *evals.Run) string {
	if r.Result == "" {
		return "no verdict"
	}
	return string(r.Result)
}

// runLine is the run's closing line: its id, status, verdict and counts.
func runLine(r *evals.Run) string {
	s := evals.Summary{}
	if r.Summary != nil {
		s = *r.Summary
	}
	verdict := verdictOf(r)
	return fmt.Sprintf("run %s %s: %s (%d passed, %d failed of %d; pass rate %.0f%%)",
		maskedField(r.ID), printableField(string(r.Status)), printableField(verdict), s.Passed, s.Failed, s.Total, s.PassRate*100)
}

// printIterations prints one line per iteration; every cell is cut to
// one line, and a failed iteration's last column is why it failed (its
// failing step's reason, else its error).
func printIterations(w io.Writer, iters []evals.Iteration, reasons map[string]string) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	// ID: what eval trace takes.
	fmt.Fprintln(tw, "#\tID\tTEST\tSTATUS\tRESULT\tTOOL CALLS\tTOKENS\tMS\tREASON")
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
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", it.IterationNumber, maskedField(it.ID), cell(it.Title, 48), printableField(string(it.Status)), printableField(result),
			cell(strings.Join(calls, ","), 40), wholeOrDash(it.TokensUsed), wholeOrDash(it.DurationMs), cell(reason, 100))
	}
	tw.Flush()
}

// wholeOrDash prints n rounded to a whole number, or "-" when the service
// sent null (no usage, not terminal), which is not 0.
func wholeOrDash(n *float64) string {
	if n == nil {
		return "-"
	}
	return strconv.FormatFloat(*n, 'f', 0, 64)
}
