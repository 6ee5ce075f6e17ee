// Command projectops is the Project Operations command line.
//
// Usage:
//
//	projectops <command> [flags]
//
// Commands:
//
//	serve   run the in-memory API double on a local address
//	report  send go test -json, JUnit, Jest or Vitest results to a run
//	env     computer environments: list, create, build, builds, boot, reset, share, delete
//	export  write a saved server's tools, resources and prompts as a JSON snapshot
//	diff    compare two export snapshots (exit 0 equal, 1 different, 2 error)
//	tools   list or call a saved server's tools (JSON in and out)
//	eval    eval runs: run (a CI gate), cancel, iterations, trace
//	tunnel  expose a local MCP server through a relay tunnel until interrupted
//	version print the module version and the commit it was built from
//
// Run "projectops <command> -h" for a command's flags.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// command is one subcommand. run gets the arguments after the command name
// and returns the process exit code: 0 success, 1 failure, 2 bad usage.
type command struct {
	name, summary string
	run           func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// commands lists the subcommands, one file each.
var commands = []command{
	{"serve", "run the in-memory API double on a local address", runServe},
	{"report", "send go test -json, JUnit, Jest or Vitest results to a run", runReport},
	{"env", "computer environments: list, create, build, builds, boot, reset, share, delete", runEnv},
	{"export", "write a server's tools, resources and prompts as a JSON snapshot", runExport},
	{"diff", "compare two export snapshots (exit 0 equal, 1 different, 2 error)", runDiff},
	{"tools", "list or call a server's tools (JSON in and out)", runTools},
	{"eval", "eval runs: run (a CI gate), cancel, iterations, trace", runEval},
	{"tunnel", "expose a local MCP server through a relay tunnel until interrupted", runTunnel},
	{"version", "print the module version and the commit it was built from", runVersion},
}

// run dispatches args to a subcommand; it is main without the process, so
// tests can drive the CLI.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "projectops: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: projectops <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "projectops <command> -h" for a command's flags.`)
}
