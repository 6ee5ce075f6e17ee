package main

import (
	"errors"
	"flag"
	"fmt"
	"text/tabwriter"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
)

func evalCancelFlags(*flag.FlagSet) func(ec *evalCmd) int {
	return func(ec *evalCmd) int {
		run, err := ec.c.Evals.Runs.Cancel(ec.ctx, ec.project, ec.args[0])
		if err != nil {
			return ec.fail(1, err)
		}
		if ec.json {
			_ = ec.printJSON(run)
		} else {
			fmt.Fprintln(ec.stdout, runLine(run))
		}
		return 0
	}
}

func evalIterationsFlags(fs *flag.FlagSet) func(ec *evalCmd) int {
	limit := fs.Int("limit", 0, "page `size` (1-200; the service's default when 0)")
	return func(ec *evalCmd) int {
		var iters []evals.Iteration
		for it, err := range ec.c.Evals.Runs.Iterations(ec.ctx, ec.project, ec.args[0], &evals.IterationsParams{Limit: *limit}) {
			if err != nil {
				return ec.fail(1, err)
			}
			iters = append(iters, it)
		}
		if ec.json {
			_ = ec.printJSON(iters)
			return 0
		}
		reasons, err := failReasons(ec.ctx, ec, ec.args[0], iters)
		if err != nil {
			return ec.fail(1, err)
		}
		printIterations(ec.stdout, iters, reasons)
		return 0
	}
}

// evalTraceFlags prints the step verdicts, then the trace; an iteration
// without a stored trace still shows its verdicts (and exits 1).
func evalTraceFlags(*flag.FlagSet) func(ec *evalCmd) int {
	return func(ec *evalCmd) int {
		runID, iterID := ec.args[0], ec.args[1]
		steps, err := ec.c.Evals.Runs.Steps(ec.ctx, ec.project, runID, iterID)
		if err != nil {
			return ec.fail(1, err)
		}
		tr, terr := ec.c.Evals.Runs.Trace(ec.ctx, ec.project, runID, iterID)
		if terr != nil && !errors.Is(terr, projectops.ErrTraceNotAvailable) {
			return ec.fail(1, terr)
		}
		if ec.json {
			out := struct {
				Steps []evals.StepResult `json:"steps"`
				Trace any                `json:"trace"`
			}{Steps: steps}
			if tr != nil {
				out.Trace = tr.Raw
			}
			_ = ec.printJSON(out)
		} else {
			tw := tabwriter.NewWriter(ec.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "STEP\tKIND\tSTATUS\tREASON")
			for _, s := range steps {
				fmt.Fprintf(tw, "%d %s\t%s\t%s\t%s\n", s.StepIndex, s.StepID, s.Kind, s.Status, s.Reason)
			}
			tw.Flush()
			if tr != nil {
				fmt.Fprintln(ec.stdout, "\nconversation:")
				for _, m := range tr.Messages {
					line := m.Content
					for _, c := range m.ToolCalls {
						line += fmt.Sprintf(" [calls %s %v]", c.ToolName, c.Arguments)
					}
					fmt.Fprintf(ec.stdout, "  %-9s %s\n", m.Role+":", line)
				}
				for _, p := range tr.Prompts {
					fmt.Fprintf(ec.stdout, "prompt %d: passed=%t missing=%d unexpected=%d\n", p.PromptIndex, p.Passed, len(p.Missing), len(p.Unexpected))
				}
			}
		}
		if terr != nil {
			return ec.fail(1, terr)
		}
		return 0
	}
}
