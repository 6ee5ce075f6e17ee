package main

import (
	"io"

	"github.com/spf13/cobra"

	projectops "github.com/projectops/projectops-go"
)

// newEvalCmd is "projectops eval": eval runs from a shell and in CI.
func newEvalCmd(a *app) *cobra.Command {
	return group(&cobra.Command{
		Use:   "eval",
		Short: "Eval suites and runs: suites, runs, run (a CI gate), status, cancel, iterations, trace",
	}, newEvalSuitesCmd(a), newEvalRunsCmd(a), newEvalRunCmd(a), newEvalStatusCmd(a), newEvalCancelCmd(a),
		newEvalIterationsCmd(a), newEvalTraceCmd(a))
}

// evalCmd is what every eval subcommand needs: the client and the project.
// What it prints or writes of the service's answers (reasons and errors
// quote tool calls' arguments, a trace holds the conversation) is redacted
// as the reporter redacts results: redact, and print's JSON.
type evalCmd struct {
	*app
	c       *projectops.Client
	project string
	redact  func(string) string // nil: nothing to redact (no client)
}

// evalSetup checks --project and builds the client.
func (a *app) evalSetup() (*evalCmd, error) {
	c, project, err := a.projectClient()
	if err != nil {
		return nil, err
	}
	return &evalCmd{app: a, c: c, project: project, redact: outputRedactor(c)}, nil
}

// command is a projectops command that reaches the run the command
// worked on (same base URL and project), or notPrinted (pasteCommand).
func (ec *evalCmd) command(path string, flags []string, args ...string) string {
	return pasteCommand(commandLine(commandBaseURL(ec.c), ec.project, path, flags, args...))
}

// redacted is s redacted by ec.redact.
func (ec *evalCmd) redacted(s string) string {
	if ec.redact == nil {
		return s
	}
	return ec.redact(s)
}

// print is app.print with the JSON redacted (see redactedJSON); the text
// is written from values redacted already.
func (ec *evalCmd) print(v any, text func(w io.Writer)) error {
	if ec.json {
		return redactedJSON(ec.stdout, ec.c, v)
	}
	return ec.text(text)
}
