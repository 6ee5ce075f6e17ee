package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/projectops/projectops-go/evals"
)

// newEvalStatusCmd is "projectops eval status": one run, however it was
// started (the hosted app, a teammate, an interrupted eval run), and with
// --wait the same gate as eval run --wait.
func newEvalStatusCmd(a *app) *cobra.Command {
	var f waitFlags
	cmd := &cobra.Command{
		Use:   "status RUN_ID [--wait] [--junit FILE] [--summary FILE]",
		Short: "Show a run's status, verdict and counts; --wait gates on its verdict",
		Long: `Shows one run of the project, however it was started (the hosted app, a
teammate, an eval run that was interrupted): its status, verdict, counts,
suite, source and notes (redacted as "eval run" redacts reasons).
With --wait it follows the run as "eval run --wait" does, with the same
flags, output and exit status: it prints the run's iterations and verdict,
can write JUnit XML and a Markdown summary. --wait-timeout or an interrupt
stops the wait, not the run (exit 2), printing how to follow or cancel it;
the run is said to go on only once a poll has seen it.
Exit status with --wait: 0 passed, 1 failed, 2 error.`,
		Args: exactArgs(1, "RUN_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.waitTimeoutSet = cmd.Flags().Changed("wait-timeout")
			if err := f.check(a.json); err != nil {
				return err
			}
			ec, err := a.evalSetup()
			if err != nil {
				return err
			}
			if f.wait {
				return ec.follow(args[0], f, false)
			}
			run, err := ec.c.Evals.Runs.Get(a.ctx, ec.project, args[0])
			if err != nil {
				return err
			}
			return ec.print(run, func(w io.Writer) { printRun(w, run, ec.redacted) })
		},
	}
	f.register(cmd.Flags())
	return cmd
}

// printRun prints the run's line (as eval cancel and eval run --wait end),
// then where it comes from, then its notes: service text, redacted by
// redact before a cell cuts it.
func printRun(w io.Writer, r *evals.Run, redact func(string) string) {
	fmt.Fprintln(w, runLine(r))
	number := "-"
	if r.RunNumber > 0 {
		number = fmt.Sprintf("#%d", r.RunNumber)
	}
	fmt.Fprintf(w, "suite %s, run %s, source %s, created %s", maskedField(r.SuiteID), number, orDash(r.Source), orDash(r.CreatedAt.String()))
	if !r.CompletedAt.IsZero() {
		fmt.Fprintf(w, ", completed %s", r.CompletedAt)
	}
	fmt.Fprintln(w)
	if r.Notes != "" {
		fmt.Fprintf(w, "notes: %s\n", cell(redact(r.Notes), 200))
	}
}

// orDash is s as one field of a line, or "-" when it is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return printableField(s)
}
