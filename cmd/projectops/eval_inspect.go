package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/pager"
)

func newEvalCancelCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "cancel RUN_ID",
		Short: "Cancel an in-flight run",
		Args:  exactArgs(1, "RUN_ID"),
		RunE: func(_ *cobra.Command, args []string) error {
			ec, err := a.evalSetup()
			if err != nil {
				return err
			}
			run, err := ec.c.Evals.Runs.Cancel(a.ctx, ec.project, args[0])
			if err != nil {
				return err
			}
			return ec.print(run, func(w io.Writer) { fmt.Fprintln(w, runLine(run)) })
		},
	}
}

func newEvalIterationsCmd(a *app) *cobra.Command {
	var limit int
	cmd := &cobra.Command{
		Use:   "iterations RUN_ID",
		Short: "List a run's iterations; a failed one shows why it failed",
		Args:  exactArgs(1, "RUN_ID"),
		RunE: func(_ *cobra.Command, args []string) error {
			if err := checkLimit(limit, evals.MaxIterationsLimit, "the service's default"); err != nil {
				return err
			}
			ec, err := a.evalSetup()
			if err != nil {
				return err
			}
			iters, err := ec.iterations(args[0], limit)
			if err != nil {
				return err
			}
			if a.json {
				return ec.print(iters, nil)
			}
			reasons, err := ec.failReasons(args[0], iters)
			if err != nil {
				return err
			}
			return a.text(func(w io.Writer) { printIterations(w, iters, reasons) })
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 0, "page `size` (1-200; the service's default when 0)")
	return cmd
}

// newEvalTraceCmd prints the step verdicts, then the trace; an iteration
// without a stored trace still shows its verdicts (and exits 2).
func newEvalTraceCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "trace RUN_ID ITERATION_ID",
		Short: "Print an iteration's step verdicts and trace",
		Args:  exactArgs(2, "RUN_ID and ITERATION_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ec, err := a.evalSetup()
			if err != nil {
				return err
			}
			runID, iterID := args[0], args[1]
			steps, err := pager.Collect(ec.c.Evals.Runs.AllSteps(a.ctx, ec.project, runID, iterID, nil))
			if err != nil {
				return err
			}
			if steps == nil {
				steps = []evals.StepResult{} // [] under --json, never null
			}
			tr, terr := ec.c.Evals.Runs.Trace(a.ctx, ec.project, runID, iterID)
			if terr != nil && !errors.Is(terr, projectops.ErrTraceNotAvailable) {
				return terr
			}
			if terr != nil {
				// No trace is an answer, not a failure: the verdicts are
				// the data, and the trace is null.
				notef(a.stderr, cmd.CommandPath(), "this iteration has no trace (TRACE_NOT_AVAILABLE)")
			}
			out := struct {
				Steps []evals.StepResult `json:"steps"`
				Trace any                `json:"trace"`
			}{Steps: steps}
			if tr != nil {
				out.Trace = tr.Raw
			}
			return ec.print(out, func(w io.Writer) { printTrace(w, steps, tr, ec.redacted) })
		},
	}
}

// printTrace prints steps and tr with every text the service returned
// (reasons, messages, tool calls' arguments and results) redacted by
// redact before a cell cuts it.
func printTrace(w io.Writer, steps []evals.StepResult, tr *evals.Trace, redact func(string) string) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STEP\tKIND\tSTATUS\tREASON")
	for _, s := range steps {
		fmt.Fprintf(tw, "%d %s\t%s\t%s\t%s\n", s.StepIndex, maskedField(s.StepID), printableField(string(s.Kind)), printableField(string(s.Status)), cell(redact(s.Reason), 100))
	}
	tw.Flush()
	if tr == nil {
		return
	}
	fmt.Fprintln(w, "\nconversation:")
	for _, m := range tr.Messages {
		line := redact(m.Content)
		for _, c := range m.ToolCalls {
			args, _ := json.Marshal(c.Arguments) // JSON, as the iterations' reasons show them
			line += fmt.Sprintf(" [calls %s %s]", printableField(c.ToolName), redact(string(args)))
		}
		for _, p := range m.Parts { // the service's form of the same
			switch p.Type {
			case "tool-call":
				line += fmt.Sprintf(" [calls %s %s]", printableField(p.ToolName), redact(string(p.Input)))
			case "tool-result":
				line += fmt.Sprintf(" [result of %s: %s]", printableField(p.ToolName), cell(redact(string(p.Output)), 100))
			}
		}
		// Aligned after "assistant:", the longest role; a message of parts
		// alone starts with its first part.
		fmt.Fprintf(w, "  %-10s %s\n", printableField(m.Role)+":", strings.TrimLeft(line, " "))
	}
	for _, p := range tr.Prompts {
		fmt.Fprintf(w, "prompt %d: passed=%t missing=%d unexpected=%d\n", p.PromptIndex, p.Passed, len(p.Missing), len(p.Unexpected))
	}
}
