package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/projectops/projectops-go/internal/jsonerr"
	"github.com/projectops/projectops-go/servers"
)

// newDiffCmd compares two export snapshots: exit 0 when they define the
// same primitives, 1 when they differ (the diff on stdout), 2 on error.
func newDiffCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "diff OLD NEW",
		Short: "Compare two export snapshots (exit 0 equal, 1 different)",
		Long: `Compares two snapshots written by "projectops export" (exportedAt is ignored).
Items are compared as written, fields the SDK's MCP types do not model and
numbers at full precision included; a null field or an empty _meta counts as
absent, while a null inside a tool's inputSchema or outputSchema or inside a
_meta is kept. Export now keeps only the fields the service does (a tool's
name, description, inputSchema and outputSchema, say), so a baseline exported
by an earlier version may hold fields new exports drop (a tool's title or
annotations), which diff reports as removed: re-export baselines after
upgrading.
Exit status: 0 equal, 1 different (the diff on stdout), 2 error.`,
		Args: exactArgs(2, "OLD and NEW snapshot files"),
		RunE: func(_ *cobra.Command, args []string) error {
			// A file that cannot be read or is no snapshot is a data
			// error (exit 2), not a bad invocation: no --help pointer.
			old, err := readSnapshot(args[0])
			if err != nil {
				return err
			}
			cur, err := readSnapshot(args[1])
			if err != nil {
				return err
			}
			d := servers.Diff(old, cur)
			if d.Changes == nil {
				d.Changes = []servers.Change{} // [] in JSON, not null
			}
			if err := a.print(d, func(w io.Writer) { fmt.Fprint(w, d) }); err != nil {
				return err
			}
			if !d.Equal() {
				return gateError{}
			}
			return nil
		},
	}
}

// readSnapshot reads an export snapshot, strictly: a file that is not one
// (a typo'd path, another JSON document) must not compare as "equal". The
// snapshot keeps the file's document in Raw, so servers.Diff compares the
// items as written: fields go-sdk's types do not model and numbers past
// float64's precision included.
func readSnapshot(path string) (*servers.ExportSnapshot, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%s: not a JSON object: %w", path, jsonerr.Describe(b, err))
	}
	for _, k := range []string{"tools", "resources", "prompts"} {
		if _, ok := raw[k]; !ok {
			return nil, fmt.Errorf("%s: not an export snapshot (no %q)", path, k)
		}
	}
	s, err := servers.ParseSnapshot(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, jsonerr.Describe(b, err))
	}
	return s, nil
}
