package main

import (
	"github.com/spf13/cobra"

	projectops "github.com/projectops/projectops-go"
)

// newEvalCmd is "projectops eval": eval runs from a shell and in CI.
func newEvalCmd(a *app) *cobra.Command {
	return group(&cobra.Command{
		Use:   "eval",
		Short: "Eval runs: run (a CI gate), cancel, iterations, trace",
	}, newEvalRunCmd(a), newEvalCancelCmd(a), newEvalIterationsCmd(a), newEvalTraceCmd(a))
}

// evalCmd is what every eval subcommand needs: the client and the project.
type evalCmd struct {
	*app
	c       *projectops.Client
	project string
}

// evalSetup checks --project and builds the client.
func (a *app) evalSetup() (*evalCmd, error) {
	c, project, err := a.projectClient()
	if err != nil {
		return nil, err
	}
	return &evalCmd{app: a, c: c, project: project}, nil
}
