package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/projectops/projectops-go/servers"
)

// runDiff compares two export snapshots: exit 0 when they define the same
// primitives, 1 when they differ (the diff on stdout), 2 on error.
func runDiff(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("projectops diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: projectops diff OLD NEW")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Compares two snapshots written by `projectops export` (exportedAt is ignored).")
		fmt.Fprintln(stderr, "Exit status: 0 equal, 1 different (diff on stdout), 2 error.")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return 2
	}
	old, err := readSnapshot(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "projectops diff: %v\n", errText(err))
		return 2
	}
	cur, err := readSnapshot(fs.Arg(1))
	if err != nil {
		fmt.Fprintf(stderr, "projectops diff: %v\n", errText(err))
		return 2
	}
	d := servers.Diff(old, cur)
	if d.Equal() {
		return 0
	}
	fmt.Fprint(stdout, d)
	return 1
}

// readSnapshot reads an export snapshot, strictly: a file that is not one
// (a typo'd path, another JSON document) must not compare as "equal".
func readSnapshot(path string) (*servers.ExportSnapshot, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%s: not a JSON object: %w", path, err)
	}
	for _, k := range []string{"tools", "resources", "prompts"} {
		if _, ok := raw[k]; !ok {
			return nil, fmt.Errorf("%s: not an export snapshot (no %q)", path, k)
		}
	}
	var s servers.ExportSnapshot
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}
