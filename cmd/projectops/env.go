package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/environments"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// newEnvCmd is "projectops env": computer environments.
func newEnvCmd(a *app) *cobra.Command {
	return group(&cobra.Command{
		Use:   "env",
		Short: "Computer environments: list, create, build, builds, boot, reset, share, delete",
	},
		envSub(a, "list", "", "List the environments you see (your drafts and the project's shared ones)", envListFlags),
		envSub(a, "create", "", "Create a personal draft from a Dockerfile", envCreateFlags),
		envSub(a, "build", "ENV_ID", "Build an environment and follow the build until it ends", envBuildFlags),
		envSub(a, "builds", "ENV_ID", "List an environment's builds, newest first", envBuildsFlags),
		envSub(a, "boot", "ENV_ID", "Boot your computer from an environment (wipes what is installed)", envSimple(envBoot)),
		envSub(a, "reset", "", "Reset your computer to its image (wipes mutable state)", envSimple(envReset)),
		envSub(a, "share", "ENV_ID", "Share a draft with the project (project admins)", envSimple(envShare)),
		envSub(a, "delete", "ENV_ID", "Delete an environment permanently", envSimple(envDelete)),
	)
}

// envCmd is the state of one invocation.
type envCmd struct {
	*app
	c            *projectops.Client
	project, arg string
}

// command is a projectops command on the same service and project, or
// notPrinted (pasteCommand).
func (ec *envCmd) command(path string, flags []string, args ...string) string {
	return pasteCommand(commandLine(commandBaseURL(ec.c), ec.project, path, flags, args...))
}

// envFlags registers a subcommand's own flags and returns what it runs:
// check (nil for none) judges the flags before a client is made, so bad
// usage is said as such whatever the configuration; do runs it.
type envFlags func(fs *pflag.FlagSet) (check func() error, do func(ec *envCmd) error)

// envSub builds one env subcommand; arg names its positional argument (""
// for none) and flags registers its own flags.
func envSub(a *app, name, arg, short string, flags envFlags) *cobra.Command {
	nargs, use := 0, name
	if arg != "" {
		nargs, use = 1, name+" "+arg
	}
	cmd := &cobra.Command{Use: use, Short: short, Args: exactArgs(nargs, arg)}
	check, do := flags(cmd.Flags())
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		if check != nil {
			if err := check(); err != nil {
				return err
			}
		}
		c, project, err := a.projectClient()
		if err != nil {
			return err
		}
		ec := &envCmd{app: a, c: c, project: project}
		if len(args) > 0 {
			ec.arg = args[0]
		}
		return do(ec)
	}
	return cmd
}

// envSimple adapts a subcommand without flags of its own.
func envSimple(do func(ec *envCmd) error) envFlags {
	return func(*pflag.FlagSet) (func() error, func(ec *envCmd) error) { return nil, do }
}

func envListFlags(fs *pflag.FlagSet) (func() error, func(ec *envCmd) error) {
	return nil, func(ec *envCmd) error {
		all := []environments.Environment{} // --json prints [] for none, as other listings do
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
					build = printableField(string(b.Status)) + " " + maskedField(b.ID)
				}
				owner := ""
				if e.IsOwner {
					owner = "you"
				}
				// Escaped before tabwriter measures the cells (see
				// printableField), ids and names masked as env create prints
				// them (maskedField); cell: a name is anyone's text (a shared
				// one another member's), cut to keep the table readable.
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", maskedField(e.ID), cell(maskAPIKey(e.Name), 40), printableField(string(e.Sharing)), owner, build, e.UpdatedAt)
			}
			tw.Flush()
		})
	}
}

func envCreateFlags(fs *pflag.FlagSet) (func() error, func(ec *envCmd) error) {
	name := fs.String("name", "", "display `name` (required)")
	file := fs.String("file", "", "Dockerfile `path` (required; - reads standard input)")
	return nil, func(ec *envCmd) error {
		if strings.TrimSpace(*name) == "" || *file == "" {
			return usagef("--name and --file are required")
		}
		var df []byte
		var err error
		if *file == "-" {
			df, err = readStdin(ec.ctx, 1<<20)
		} else {
			df, err = os.ReadFile(*file)
		}
		switch {
		case errors.Is(err, errStdinTerminal):
			return usageError{err}
		case err != nil:
			return err
		case strings.TrimSpace(string(df)) == "":
			return usagef("--file %s: the Dockerfile is empty", *file)
		}
		e, err := ec.c.Environments.Create(ec.ctx, ec.project, environments.CreateParams{Name: *name, Dockerfile: string(df)})
		if err != nil {
			return err
		}
		return ec.print(e, func(w io.Writer) {
			fmt.Fprintf(w, "created %s (%s, personal draft); build it with: %s\n",
				maskedField(e.ID), maskedField(e.Name), ec.command("env build", nil, e.ID))
		})
	}
}

func envBuildsFlags(fs *pflag.FlagSet) (func() error, func(ec *envCmd) error) {
	limit := fs.Int("limit", 10, "show at most `n` builds (0: all)")
	check := func() error { return checkLimit(*limit, 0, "all") }
	return check, func(ec *envCmd) error {
		all, err := firstN(ec.c.Environments.AllBuilds(ec.ctx, ec.project, ec.arg, nil), *limit)
		if err != nil {
			return err
		}
		return ec.print(all, func(w io.Writer) {
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSTATUS\tPROVIDER\tCREATED\tERROR")
			for _, b := range all {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", maskedField(b.ID), printableField(string(b.Status)), printableField(string(b.Provider)),
					b.CreatedAt, cell(b.Error, 100))
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
		fmt.Fprintf(w, "computer %s booting from %s (%s)\n", maskedField(a.ComputerID), maskedField(a.EnvironmentID), printableField(string(a.Status)))
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
	return ec.print(e, func(w io.Writer) {
		fmt.Fprintf(w, "%s (%s) is shared with the project\n", maskedField(e.ID), maskedField(e.Name))
	})
}

func envDelete(ec *envCmd) error {
	d, err := ec.c.Environments.Delete(ec.ctx, ec.project, ec.arg)
	if err != nil {
		return err
	}
	return ec.print(d, func(w io.Writer) { fmt.Fprintf(w, "deleted %s\n", maskedField(d.ID)) })
}
