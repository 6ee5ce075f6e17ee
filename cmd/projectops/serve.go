package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

// runServe starts the in-memory double on --addr, seeded from --seed or
// with the demo workspace, prints the base URL and the usable API keys, and
// serves until ctx ends (SIGINT or SIGTERM in main).
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("projectops serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "`host:port` to listen on (port 0 picks a free port)")
	seedPath := fs.String("seed", "", "seed `file` (JSON, see projectopstest.Seed); default: the demo workspace")
	perMinute := fs.Int("rate-limit", projectopstest.DefaultRatePerMinute, "requests per minute per API key; 0 disables")
	burst := fs.Int("burst", projectopstest.DefaultRateBurst, "rate-limit burst per API key")
	verbose := fs.Bool("v", false, "log every request (never keys or bodies) to stderr")
	buildStep := fs.Duration("build-step-delay", 300*time.Millisecond, "real time each environment build step takes")
	stepDelay := fs.Duration("step-delay", 0, "real time each eval step and prompt takes (0: as fast as they go)")
	maxRuns := fs.Int("max-runs", 0, "keep at most `n` eval runs, dropping the oldest finished ones (0 keeps all)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: projectops serve [--addr host:port] [--seed file] [--rate-limit n] [--burst n] [--build-step-delay d] [--step-delay d] [--max-runs n] [-v]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Runs the Project Operations API double (an in-memory fake of the whole API) for any client.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "projectops serve: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}

	seed := projectopstest.DemoSeed()
	if *seedPath != "" {
		var err error
		if seed, err = projectopstest.LoadSeed(*seedPath); err != nil {
			fmt.Fprintf(stderr, "projectops serve: %v\n", errText(err))
			return 1
		}
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	srv, err := projectopstest.NewServer(projectopstest.WithSeed(seed), projectopstest.WithLogger(logger),
		projectopstest.WithRateLimit(*perMinute, *burst), projectopstest.WithBuildStepDelay(*buildStep),
		projectopstest.WithMaxRuns(*maxRuns), projectopstest.WithEvalStepDelay(*stepDelay))
	if err != nil {
		fmt.Fprintf(stderr, "projectops serve: %v\n", errText(err))
		return 1
	}
	base, err := srv.StartAt(*addr)
	if err != nil {
		_ = srv.Close()
		fmt.Fprintf(stderr, "projectops serve: listen: %v\n", errText(err))
		return 1
	}
	fmt.Fprintf(stdout, "projectops: serving the API double at %s\n", base)
	printKeys(stdout, seed)
	fmt.Fprintln(stdout, "Press Ctrl-C to stop.")

	<-ctx.Done()
	if err := srv.Close(); err != nil {
		fmt.Fprintf(stderr, "projectops serve: shutdown: %v\n", errText(err))
		return 1
	}
	fmt.Fprintln(stdout, "projectops: stopped")
	return 0
}

// printKeys lists the seed's usable keys with their users' roles. Printing
// them is the point: a standalone double is only reachable with them.
func printKeys(w io.Writer, seed *projectopstest.Seed) {
	roles := map[string]projectopstest.Role{}
	for _, u := range seed.Users {
		roles[u.ID] = u.Role
	}
	fmt.Fprintln(w, "API keys (send as Authorization: Bearer <key>):")
	for _, k := range seed.APIKeys {
		if k.Revoked || k.Orphaned {
			continue
		}
		fmt.Fprintf(w, "  %-10s %-14s %s\n", roles[k.UserID], k.UserID, string(k.Secret))
	}
}
