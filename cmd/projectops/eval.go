package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	projectops "github.com/projectops/projectops-go"
)

// evalSub is one "projectops eval" subcommand; args names its positional
// arguments.
type evalSub struct {
	name, args, summary string
	nargs               int
	flags               func(fs *flag.FlagSet) func(ec *evalCmd) int
}

var evalSubs = []evalSub{
	{"run", "", "create a run of a suite (--suite) or of a tests file (--file); --wait follows it (exit 0 passed, 1 failed, 2 error)", 0, evalRunFlags},
	{"cancel", "RUN_ID", "cancel an in-flight run", 1, evalCancelFlags},
	{"iterations", "RUN_ID", "list a run's iterations", 1, evalIterationsFlags},
	{"trace", "RUN_ID ITERATION_ID", "print an iteration's step verdicts and trace", 2, evalTraceFlags},
}

// evalCmd is the state of one invocation.
type evalCmd struct {
	ctx            context.Context
	c              *projectops.Client
	project        string
	args           []string
	json           bool
	stdout, stderr io.Writer
	name           string
}

// runEval runs "projectops eval <subcommand> [flags] [args]". The API key
// comes from PROJECTOPS_API_KEY only, never from a flag.
func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	sub, code := pickSub("eval", args, evalSubs, func(s *evalSub) string { return s.name }, evalUsage, stderr)
	if sub == nil {
		return code
	}
	ec := &evalCmd{ctx: ctx, stdout: stdout, stderr: stderr, name: "projectops eval " + sub.name}
	fs := flag.NewFlagSet(ec.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&ec.project, "project", os.Getenv(envProject), "project `id` (default $PROJECTOPS_PROJECT)")
	baseURL := fs.String("base-url", "", "API base `URL` including /api/v1 (default $PROJECTOPS_BASE_URL or the hosted service)")
	fs.BoolVar(&ec.json, "json", false, "print JSON instead of text")
	do := sub.flags(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: %s [flags] %s\n\n%s.\nThe API key is read from PROJECTOPS_API_KEY.\n\n", ec.name, sub.args, sub.summary)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	switch {
	case fs.NArg() != sub.nargs:
		fmt.Fprintf(stderr, "%s: want %d argument(s): %s\n", ec.name, sub.nargs, sub.args)
		return 2
	case ec.project == "":
		fmt.Fprintf(stderr, "%s: --project is required (or set PROJECTOPS_PROJECT)\n", ec.name)
		return 2
	}
	ec.args = fs.Args()
	var opts []projectops.Option
	if *baseURL != "" {
		opts = append(opts, projectops.WithBaseURL(*baseURL))
	}
	var err error
	if ec.c, err = projectops.NewClient(opts...); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", ec.name, errText(err))
		return 2
	}
	return do(ec)
}

func evalUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: projectops eval <subcommand> --project ID [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Eval runs. The API key is read from PROJECTOPS_API_KEY.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Subcommands:")
	for _, s := range evalSubs {
		fmt.Fprintf(w, "  %-10s %s\n", s.name, s.summary)
	}
}

// fail reports err and returns code.
func (ec *evalCmd) fail(code int, err error) int {
	fmt.Fprintf(ec.stderr, "%s: %v\n", ec.name, errText(err))
	var e *projectops.Error
	if errors.As(err, &e) && len(e.HostedModels) > 0 {
		// A model the service cannot run: say which hosted ones it can.
		fmt.Fprintf(ec.stderr, "%s: valid hosted models: %s\n", ec.name, strings.Join(e.HostedModels, ", "))
	}
	return code
}

// printJSON writes v indented.
func (ec *evalCmd) printJSON(v any) error {
	enc := json.NewEncoder(ec.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
