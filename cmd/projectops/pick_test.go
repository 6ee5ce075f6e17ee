package main

import (
	"strings"
	"testing"
)

// The grouped commands share one subcommand picker: no subcommand and an
// unknown one are bad usage (2), help is 0, and each prints the usage.
func TestSubcommandPicking(t *testing.T) {
	for _, group := range []string{"env", "eval"} {
		for _, tc := range []struct {
			args []string
			code int
			errs string
		}{
			{nil, 2, "Usage"},
			{[]string{"help"}, 0, "Usage"},
			{[]string{"--help"}, 0, "Usage"},
			{[]string{"nope"}, 2, `unknown subcommand "nope"`},
		} {
			code, _, errs := runCLI(t, append([]string{group}, tc.args...)...)
			if code != tc.code || !strings.Contains(errs, tc.errs) {
				t.Errorf("%s %v: exit %d, stderr %q; want %d and %q", group, tc.args, code, errs, tc.code, tc.errs)
			}
		}
	}
}
