package main

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/projectops/projectops-go/evals"
)

func newEvalSuitesCmd(a *app) *cobra.Command {
	var limit int
	cmd := &cobra.Command{
		Use:   "suites",
		Short: "List the project's eval suites with their latest run",
		Args:  exactArgs(0, ""),
		RunE: func(_ *cobra.Command, _ []string) error {
			if err := checkLimit(limit, 0, "all"); err != nil {
				return err
			}
			ec, err := a.evalSetup()
			if err != nil {
				return err
			}
			all, err := firstN(ec.c.Evals.Suites.All(a.ctx, ec.project, nil), limit)
			if err != nil {
				return err
			}
			return ec.print(all, func(w io.Writer) { printSuites(w, all, ec.redacted) })
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 0, "show at most `n` suites (0: all)")
	return cmd
}

// printSuites prints one line per suite: its id (what eval run --suite and
// eval runs take), its name (anyone's text: redacted, then cut) and its
// latest run, which the listing carries without a verdict.
func printSuites(w io.Writer, suites []evals.Suite, redact func(string) string) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tRUNS\tLATEST RUN\tSTATUS\tPASSED\tFAILED\tPASS RATE")
	for _, s := range suites {
		run, status, passed, failed, rate := "-", "-", "-", "-", "-"
		if l := s.LatestRun; l != nil {
			run, status = orDash(l.ID), orDash(string(l.Status))
			// nil is no verdict yet, not 0.
			if l.Passed != nil {
				passed = strconv.Itoa(*l.Passed)
			}
			if l.Failed != nil {
				failed = strconv.Itoa(*l.Failed)
			}
			if l.PassRate != nil {
				rate = fmt.Sprintf("%.0f%%", *l.PassRate*100)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", maskedField(s.ID), cell(redact(s.Name), 40), s.Totals.Runs,
			run, status, passed, failed, rate)
	}
	tw.Flush()
}

func newEvalRunsCmd(a *app) *cobra.Command {
	var limit int
	cmd := &cobra.Command{
		Use:   "runs SUITE_ID",
		Short: "List a suite's recent runs, newest first",
		Args:  exactArgs(1, "SUITE_ID"),
		RunE: func(_ *cobra.Command, args []string) error {
			if err := checkLimit(limit, evals.MaxSuiteRunsLimit, "the service's default, 25"); err != nil {
				return err
			}
			ec, err := a.evalSetup()
			if err != nil {
				return err
			}
			// The service sends the limit most recent; a service that
			// pages them is stopped at limit all the same.
			all, err := firstN(ec.c.Evals.Suites.AllRuns(a.ctx, ec.project, args[0], &evals.SuiteRunsParams{Limit: limit}), limit)
			if err != nil {
				return err
			}
			return ec.print(all, func(w io.Writer) { printRuns(w, all, ec.redacted) })
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 0, "show the `n` most recent runs (1-100; 0: the service's default, 25)")
	return cmd
}

// printRuns prints one line per run, its notes (service text: redacted,
// then cut) last.
func printRuns(w io.Writer, runs []evals.Run, redact func(string) string) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	// ID: what eval status, iterations and cancel take.
	fmt.Fprintln(tw, "ID\t#\tSTATUS\tRESULT\tPASSED\tFAILED\tCREATED\tSOURCE\tNOTES")
	for _, r := range runs {
		number, passed, failed := "-", "-", "-"
		if r.RunNumber > 0 {
			number = strconv.Itoa(r.RunNumber)
		}
		if s := r.Summary; s != nil {
			passed, failed = strconv.Itoa(s.Passed), strconv.Itoa(s.Failed)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", maskedField(r.ID), number, orDash(string(r.Status)), orDash(string(r.Result)),
			passed, failed, orDash(r.CreatedAt.String()), orDash(r.Source), cell(redact(r.Notes), 60))
	}
	tw.Flush()
}
