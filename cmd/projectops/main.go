// Command projectops is the Project Operations command line: the API double
// (serve), CI gates (eval run, diff, report) and a shell over the API.
//
// Usage:
//
//	projectops <command> [flags]
//
// Run "projectops help" for the command tree and "projectops <command>
// --help" for a command's flags; docs/cli.md has the whole reference, and
// the exit-code table:
//
//	0  success
//	1  a gate failed: an eval run or reported tests failed, snapshots differ,
//	   a tool returned isError (report -- CMD exits with CMD's own status)
//	2  bad usage, a configuration error, or an API error (report resume:
//	   a run not delivered, or a delivered run's files not removed or
//	   moved aside)
//	3  report resume delivered everything it could read, but skipped
//	   damaged spool lines (said once: each file is moved aside; said
//	   again while moving it aside fails)
package main

import (
	"context"
	"io"
	"os"
)

func main() {
	// A signal ends ctx, so a command can finish cleanly (catchSignals).
	// report, which may wait on input that never ends, lets a second
	// signal end the process (releaseSignals).
	ctx, release, stop := catchSignals(endBySignal)
	releaseSignals = release
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// releaseSignals makes the next signal end the process at once; main sets
// it (tests that call run leave it a no-op).
var releaseSignals = func() {}

// run executes the command tree on args and returns the exit code; it is
// main without the process, so tests drive the CLI through it.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	a := &app{ctx: ctx, stdout: stdout, stderr: &lockedWriter{w: stderr}}
	root := newRoot(a)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	return a.exit(cmd, err)
}
