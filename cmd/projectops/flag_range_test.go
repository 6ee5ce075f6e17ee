package main

import (
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// pflag v1.1.0 says "must be an integer" for any bad int value; a whole
// number too large is told it is out of range instead.
func TestFlagOutOfRangeIsNotCalledNotAnInteger(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", projectopstest.DemoOwnerKey)
	for _, args := range [][]string{
		{"eval", "iterations", "--limit", "99999999999999999999", "run_1"},
		{"report", "--min-pass-rate", "1e400"},
	} {
		code, _, errOut := runCLI(t, args...)
		if code != exitError || !strings.Contains(errOut, "range") {
			t.Errorf("%v: exit %d: %q; want it to say the value is out of range", args, code, errOut)
		}
	}
}
