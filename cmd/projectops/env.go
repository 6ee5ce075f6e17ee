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
	"text/tabwriter"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/environments"
)

// envSub is one "projectops env" subcommand. arg names its positional
// argument ("" for none).
type envSub struct {
	name, arg, summary string
	flags              func(fs *flag.FlagSet) func(ec *envCmd) error
}

var envSubs = []envSub{
	{"list", "", "list the environments you see (your drafts and the project's shared ones)", envListFlags},
	{"create", "", "create a personal draft from a Dockerfile", envCreateFlags},
	{"build", "ENV_ID", "build an environment and follow the build until it ends", envBuildFlags},
	{"builds", "ENV_ID", "list an environment's builds, newest first", envBuildsFlags},
	{"boot", "ENV_ID", "boot your computer from an environment (wipes what is installed)", envSimple(envBoot)},
	{"reset", "", "reset your computer to its image (wipes mutable state)", envSimple(envReset)},
	{"share", "ENV_ID", "share a draft with the project (project admins)", envSimple(envShare)},
	{"delete", "ENV_ID", "delete an environment permanently", envSimple(envDelete)},
}

// envCmd is the state of one invocation.
type envCmd struct {
	ctx            context.Context
	c              *projectops.Client
	project, arg   string
	json           bool
	stdout, stderr io.Writer
}

// runEnv runs "projectops env <subcommand> [flags] [ENV_ID]". The API key
// comes from PROJECTOPS_API_KEY only, never from a flag (shell history).
func runEnv(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	sub, code := pickSub("env", args, envSubs, func(s *envSub) string { return s.name }, envUsage, stderr)
	if sub == nil {
		return code
	}
	name := "projectops env " + sub.name
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	ec := &envCmd{ctx: ctx, stdout: stdout, stderr: stderr}
	fs.StringVar(&ec.project, "project", os.Getenv(envProject), "project `id` (default $PROJECTOPS_PROJECT)")
	baseURL := fs.String("base-url", "", "API base `URL` including /api/v1 (default $PROJECTOPS_BASE_URL or the hosted service)")
	fs.BoolVar(&ec.json, "json", false, "print JSON instead of text")
	do := sub.flags(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: %s [flags] %s\n\n%s.\nThe API key is read from PROJECTOPS_API_KEY.\n\n", name, sub.arg, sub.summary)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	switch {
	case sub.arg != "" && fs.NArg() != 1:
		fmt.Fprintf(stderr, "%s: want exactly one %s argument\n", name, sub.arg)
		return 2
	case sub.arg == "" && fs.NArg() != 0:
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", name, fs.Arg(0))
		return 2
	case ec.project == "":
		fmt.Fprintf(stderr, "%s: --project is required (or set PROJECTOPS_PROJECT)\n", name)
		return 2
	}
	ec.arg = fs.Arg(0)
	var opts []projectops.Option
	if *baseURL != "" {
		opts = append(opts, projectops.WithBaseURL(*baseURL))
	}
	var err error
	if ec.c, err = projectops.NewClient(opts...); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, errText(err))
		return 1
	}
	if err := do(ec); err != nil {
		var usage envUsageError
		if errors.As(err, &usage) {
			fmt.Fprintf(stderr, "%s: %v\n", name, errText(err))
			return 2
		}
		fmt.Fprintf(stderr, "%s: %v\n", name, errText(err))
		return 1
	}
	return 0
}

// envUsageError is a bad invocation found after flag parsing (exit 2).
type envUsageError string

func (e envUsageError) Error() string { return string(e) }

func envUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: projectops env <subcommand> --project ID [flags] [ENV_ID]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Computer environments. The API key is read from PROJECTOPS_API_KEY.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Subcommands:")
	for _, s := range envSubs {
		fmt.Fprintf(w, "  %-7s %s\n", s.name, s.summary)
	}
}

// envSimple adapts a subcommand without flags of its own.
func envSimple(do func(ec *envCmd) error) func(fs *flag.FlagSet) func(ec *envCmd) error {
	return func(*flag.FlagSet) func(ec *envCmd) error { return do }
}

// print writes v as JSON with --json, else calls text.
func (ec *envCmd) print(v any, text func(w io.Writer)) error {
	if ec.json {
		enc := json.NewEncoder(ec.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	text(ec.stdout)
	return nil
}

func envListFlags(fs *flag.FlagSet) func(ec *envCmd) error {
	return func(ec *envCmd) error {
		var all []environments.Environment
		for e, err := range ec.c.Environments.All(ec.ctx, ec.project, nil) {
			if err != nil {
				return err
			}
			all = append(all, e)
		}
		return ec.print(all, func(w io.Writer) {
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tSHARING\tOWNER\tBUILD\tUPDATED")
			for _, e := range all {
				build := "-"
				if b := e.CurrentBuild; b != nil {
					build = string(b.Status) + " " + b.ID
				}
				owner := ""
				if e.IsOwner {
					owner = "you"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.ID, e.Name, e.Sharing, owner, build, e.UpdatedAt)
			}
			tw.Flush()
		})
	}
}

func envCreateFlags(fs *flag.FlagSet) func(ec *envCmd) error {
	name := fs.String("name", "", "display `name` (required)")
	file := fs.String("file", "", "Dockerfile `path` (required; - reads standard input)")
	return func(ec *envCmd) error {
		if strings.TrimSpace(*name) == "" || *file == "" {
			return envUsageError("--name and --file are required")
		}
		var df []byte
		var err error
		if *file == "-" {
			df, err = io.ReadAll(os.Stdin)
		} else {
			df, err = os.ReadFile(*file)
		}
		if err != nil {
			return err
		}
		e, err := ec.c.Environments.Create(ec.ctx, ec.project, environments.CreateParams{Name: *name, Dockerfile: string(df)})
		if err != nil {
			return err
		}
		return ec.print(e, func(w io.Writer) {
			fmt.Fprintf(w, "created %s (%s, personal draft); build it with: projectops env build --project %s %s\n",
				e.ID, e.Name, ec.project, e.ID)
		})
	}
}

func envBuildsFlags(fs *flag.FlagSet) func(ec *envCmd) error {
	limit := fs.Int("limit", 10, "show at most `n` builds (0: all)")
	return func(ec *envCmd) error {
		var all []environments.Build
		for b, err := range ec.c.Environments.AllBuilds(ec.ctx, ec.project, ec.arg, nil) {
			if err != nil {
				return err
			}
			if *limit > 0 && len(all) == *limit {
				break
			}
			all = append(all, b)
		}
		return ec.print(all, func(w io.Writer) {
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSTATUS\tPROVIDER\tCREATED\tERROR")
			for _, b := range all {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", b.ID, b.Status, b.Provider, b.CreatedAt, b.Error)
			}
			tw.Flush()
		})
	}
}

func envBoot(ec *envCmd) error {
	a, err := ec.c.Environments.Boot(ec.ctx, ec.project, ec.arg)
	if err != nil {
		return err
	}
	return ec.print(a, func(w io.Writer) {
		fmt.Fprintf(w, "computer %s booting from %s (%s)\n", a.ComputerID, a.EnvironmentID, a.Status)
	})
}

func envReset(ec *envCmd) error {
	r, err := ec.c.Environments.Reset(ec.ctx, ec.project)
	if err != nil {
		return err
	}
	return ec.print(r, func(w io.Writer) { fmt.Fprintln(w, "computer reset to its image") })
}

func envShare(ec *envCmd) error {
	e, err := ec.c.Environments.Share(ec.ctx, ec.project, ec.arg)
	if err != nil {
		return err
	}
	return ec.print(e, func(w io.Writer) { fmt.Fprintf(w, "%s (%s) is shared with the project\n", e.ID, e.Name) })
}

func envDelete(ec *envCmd) error {
	d, err := ec.c.Environments.Delete(ec.ctx, ec.project, ec.arg)
	if err != nil {
		return err
	}
	return ec.print(d, func(w io.Writer) { fmt.Fprintf(w, "deleted %s\n", d.ID) })
}
