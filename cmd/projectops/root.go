package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/projectops/projectops-go/option"

	"github.com/spf13/cobra"

	projectops "github.com/projectops/projectops-go"
)

// envProject names the one environment variable for --project.
const envProject = "PROJECTOPS_PROJECT"

// app is one invocation's shared state: the persistent flags and the
// streams. Stdout carries data only; progress and errors go to stderr.
type app struct {
	ctx            context.Context
	stdout, stderr io.Writer
	baseURL        string
	project        string
	verbose        bool
	json           bool
}

// newRoot builds the command tree.
func newRoot(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "projectops",
		Short: "The Project Operations command line",
		Long: `projectops runs the Project Operations API double (serve), gates CI on eval runs,
snapshots and test reports, and calls the API from a shell.

The API key is read from PROJECTOPS_API_KEY only (never a flag: shell history).
Text output escapes control characters in what the service sends (\x1b),
and newlines within a field of a line (\n); --json keeps every string exact.
Exit status: 0 success; 1 a gate failed (a run, a build or reported tests
failed, snapshots differ, a tool returned isError); 2 bad usage or an API error;
3 report resume skipped damaged spool lines (everything else delivered).`,
		Args:          noSubcommand,
		RunE:          missingSubcommand,
		SilenceErrors: true, // printed once, by app.exit
		SilenceUsage:  true,
	}
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetContext(a.ctx)
	root.SetUsageTemplate(root.UsageTemplate() + usageFooter)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{flagRange(err)} })
	pf := root.PersistentFlags()
	pf.StringVar(&a.baseURL, "base-url", "", "API base `URL` including /api/v1 (default $PROJECTOPS_BASE_URL or the hosted service)")
	// The environment is read when the flag is unset, not as the flag's
	// default, so help reads the same on every machine.
	pf.StringVarP(&a.project, "project", "p", "", "project `id` (default $"+envProject+")")
	pf.BoolVarP(&a.verbose, "verbose", "v", false, "log requests, retries and their waits to stderr")
	pf.BoolVar(&a.json, "json", false, "print JSON instead of text")
	root.PersistentPreRun = func(*cobra.Command, []string) {
		if a.project == "" {
			a.project = os.Getenv(envProject)
		}
	}
	_ = root.RegisterFlagCompletionFunc("project", a.completeProjects)
	root.AddCommand(newServeCmd(a), newReportCmd(a), newEvalCmd(a), newEnvCmd(a), newToolsCmd(a),
		newExportCmd(a), newDiffCmd(a), newTunnelCmd(a), newVersionCmd(a))
	root.InitDefaultCompletionCmd() // now, so help, docs and tests see it
	if c, _, err := root.Find([]string{"completion"}); err == nil && c != root {
		// A group like the others: bare or with an unknown shell, a usage
		// error (exit 2), not a help page on stdout with exit 0.
		c.Args, c.RunE = noSubcommand, missingSubcommand
	}
	root.InitDefaultHelpCmd() // now, to make an unknown topic a usage error
	if h, _, err := root.Find([]string{"help"}); err == nil && h != root && h.Run != nil {
		// cobra's help finds the root for "help nope" (its Args accept
		// any word) and prints the root's help with exit 0.
		run := h.Run
		h.Run = nil
		h.RunE = func(c *cobra.Command, args []string) error {
			if _, rest, err := c.Root().Find(args); err != nil || len(rest) > 0 {
				return usagef("unknown help topic %q", strings.Join(args, " "))
			}
			run(c, args)
			return nil
		}
	}
	return root
}

// usageFooter ends every command's help: the environment and the
// exit-code table are the same for all of them.
const usageFooter = `
Environment: PROJECTOPS_API_KEY (the API key), PROJECTOPS_BASE_URL, PROJECTOPS_PROJECT.
Exit status: 0 success; 1 a gate failed; 2 bad usage or an API error;
3 report resume skipped damaged spool lines.
`

// group makes cmd a parent of subcommands: bare, or with an unknown
// subcommand, it is a usage error (exit 2), never a silent help page.
func group(cmd *cobra.Command, subs ...*cobra.Command) *cobra.Command {
	cmd.Args = noSubcommand
	cmd.RunE = missingSubcommand
	cmd.AddCommand(subs...)
	return cmd
}

func noSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) > 0 && !(len(args) == 1 && args[0] == "help") {
		return usagef("unknown command %q for %q", args[0], cmd.CommandPath())
	}
	return nil
}

func missingSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 1 { // "projectops env help", as "projectops help env"
		return cmd.Help()
	}
	cmd.SetOut(cmd.ErrOrStderr())
	_ = cmd.Help()
	return usagef("missing command")
}

// exactArgs wants n positional arguments, named by what for the message.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			if n == 0 {
				return usagef("unexpected argument %q", args[0])
			}
			return usagef("want %s, got %d argument(s)", what, len(args))
		}
		return nil
	}
}

// needProject returns --project, or a usage error when it is unset.
func (a *app) needProject() (string, error) {
	if a.project == "" {
		return "", usagef("--project is required (or set %s)", envProject)
	}
	return a.project, nil
}

// projectClient is what a command on a project needs: the client and
// --project (a usage error when either is missing).
func (a *app) projectClient() (*projectops.Client, string, error) {
	project, err := a.needProject()
	if err != nil {
		return nil, "", err
	}
	c, err := a.client()
	return c, project, err
}

// client builds the SDK client from PROJECTOPS_API_KEY and the persistent
// flags. A missing key is a configuration error, caught before any call.
func (a *app) client() (*projectops.Client, error) {
	if os.Getenv(option.EnvAPIKey) == "" {
		return nil, usagef("%s is not set", option.EnvAPIKey)
	}
	opts := []option.RequestOption{}
	if a.baseURL != "" {
		opts = append(opts, option.WithBaseURL(a.baseURL))
	}
	if a.verbose {
		opts = append(opts, option.WithLogger(a.logger()))
	}
	c, err := projectops.NewClient(opts...)
	if err != nil {
		return nil, usageError{err}
	}
	return c, nil
}

// logger is the -v logger: debug level, on stderr.
func (a *app) logger() *slog.Logger {
	level := slog.LevelInfo
	if a.verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: level}))
}

// print writes v as JSON with --json, else calls text.
func (a *app) print(v any, text func(w io.Writer)) error {
	if a.json {
		return writeJSON(a.stdout, v)
	}
	return a.text(text)
}

// text calls write on stdout and returns the first write error: output
// that never arrived (a full disk) is a failure, as under --json. The
// text has its control characters escaped (see printable).
func (a *app) text(write func(w io.Writer)) error {
	w := &stickyWriter{w: a.stdout}
	write(printableWriter{w})
	return w.err
}

// stickyWriter keeps the first write error and writes nothing after it.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.err = err
	return n, err
}

// writeJSON prints v as indented JSON: a command's whole output.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// writeJSONLine prints v as JSON on one line, then a newline: what a
// command that goes on running prints first (serve, tunnel), so a script
// reads it with one readline while the process runs.
func writeJSONLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// completeProjects completes --project from the projects the key sees.
func (a *app) completeProjects(cmd *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
	c, err := a.client()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []string
	for p, err := range c.Catalog.AllProjects(cmd.Context(), nil) {
		if err != nil {
			break
		}
		out = append(out, fmt.Sprintf("%s\t%s", p.ID, p.Name))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
