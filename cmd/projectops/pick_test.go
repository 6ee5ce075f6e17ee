package main

import (
	"strings"
	"testing"
)

// The grouped commands behave alike: no subcommand and an unknown one are
// bad usage (2) with the usage on stderr; help is 0 with it on stdout.
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
			{[]string{"nope"}, 2, `unknown command "nope"`},
		} {
			code, out, errs := runCLI(t, append([]string{group}, tc.args...)...)
			if tc.code == 0 {
				errs = out // help asked for is data
			}
			if code != tc.code || !strings.Contains(errs, tc.errs) {
				t.Errorf("%s %v: exit %d, stderr %q; want %d and %q", group, tc.args, code, errs, tc.code, tc.errs)
			}
		}
	}
}
