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

// Every --limit outside the range its help gives is bad usage of --limit
// (with the --help pointer), refused before any request: eval iterations'
// 0-200 (0: the service's default), env builds' 0 or more (0: all).
func TestLimitOutOfRangeIsAUsageError(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", projectopstest.DemoOwnerKey)
	t.Setenv("PROJECTOPS_PROJECT", "prj_demo")
	t.Setenv("PROJECTOPS_BASE_URL", "http://127.0.0.1:1/api/v1") // never asked
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "iterations", "run_1", "--limit", "-1"}, "--limit -1: must be 0 (the service's default) to 200"},
		{[]string{"eval", "iterations", "run_1", "--limit", "201"}, "--limit 201: must be 0 (the service's default) to 200"},
		{[]string{"env", "builds", "env_1", "--limit", "-1"}, "--limit -1: must be 0 (all) or more"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != exitError || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "--help") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error saying %q", tc.args, code, errOut, tc.want)
		}
	}
	for _, n := range []int{0, 1, 200} {
		if err := checkLimit(n, 200, "the service's default"); err != nil {
			t.Errorf("checkLimit(%d) = %v, want it in range", n, err)
		}
	}
}

// Bad flags are said as bad usage before the configuration is looked at:
// with no API key, --limit -1 is still the error, for env builds as for
// eval iterations, and so are env build's --interval and --wait-timeout.
func TestFlagsAreCheckedBeforeTheClient(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", "")
	t.Setenv("PROJECTOPS_PROJECT", "prj_demo")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "iterations", "run_1", "--limit", "-1"}, "--limit -1"},
		{[]string{"env", "builds", "env_1", "--limit", "-1"}, "--limit -1"},
		{[]string{"env", "build", "env_1", "--interval", "0"}, "--interval must be positive"},
		{[]string{"env", "build", "env_1", "--wait=false", "--wait-timeout", "1m"}, "--wait-timeout needs --wait"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != exitError || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "PROJECTOPS_API_KEY") {
			t.Errorf("%v: exit %d: %q; want it to say %q", tc.args, code, errOut, tc.want)
		}
	}
}
