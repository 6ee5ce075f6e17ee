package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"

	projectops "github.com/projectops/projectops-go"
)

// apiClient builds the SDK client the API commands use, configured the
// SDK's normal way: PROJECTOPS_API_KEY and PROJECTOPS_BASE_URL.
func apiClient() (*projectops.Client, error) {
	c, err := projectops.NewClient()
	if err != nil {
		return nil, err
	}
	if os.Getenv("PROJECTOPS_API_KEY") == "" {
		return nil, errors.New("PROJECTOPS_API_KEY is not set")
	}
	return c, nil
}

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// fail reports err for command name and returns exit code 1.
func fail(stderr io.Writer, name string, err error) int {
	fmt.Fprintf(stderr, "projectops %s: %v\n", name, errText(err))
	return 1
}

// pickSub finds the subcommand args[0] of command group among subs. With no
// subcommand it prints usage and returns exit code 2; with -h/--help/help,
// usage and 0; with an unknown one, an error, usage and 2. sub is nil
// whenever the caller should return code.
func pickSub[S any](group string, args []string, subs []S, name func(*S) string, usage func(io.Writer), stderr io.Writer) (sub *S, code int) {
	if len(args) == 0 {
		usage(stderr)
		return nil, 2
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage(stderr)
		return nil, 0
	}
	for i := range subs {
		if name(&subs[i]) == args[0] {
			return &subs[i], 0
		}
	}
	fmt.Fprintf(stderr, "projectops %s: unknown subcommand %q\n\n", group, args[0])
	usage(stderr)
	return nil, 2
}

// failSetup reports a configuration error (no key, a bad base URL) for
// command name and returns exit code 2, as every command does for bad usage.
func failSetup(stderr io.Writer, name string, err error) int {
	fmt.Fprintf(stderr, "projectops %s: %v\n", name, errText(err))
	return 2
}

// needFlags checks that required string flags are set, printing usage. The
// first missing flag in name order is reported, so the message is stable.
func needFlags(stderr io.Writer, usage func(), flags map[string]string) bool {
	for _, name := range slices.Sorted(maps.Keys(flags)) {
		if flags[name] == "" {
			fmt.Fprintf(stderr, "missing --%s\n", name)
			usage()
			return false
		}
	}
	return true
}
