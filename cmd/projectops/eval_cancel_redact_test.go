package main

import (
	"os"
	"strings"
	"testing"
)

// eval cancel prints the run it cancelled, notes and all, and eval
// iterations prints each test's title: service text that may quote the
// API key, so both are redacted as eval status's output is.
func TestEvalCancelAndIterationsRedact(t *testing.T) {
	evalServer(t)
	key := os.Getenv("PROJECTOPS_API_KEY")
	p := echoTest(os.Getenv("EVAL_TEST_DEMO_SERVER"), "nightly with "+key)
	p.Tests[0].Title = "echo " + key
	rc := startRun(t, p)
	for _, args := range [][]string{{"cancel", rc.RunID, "--json"}, {"iterations", rc.RunID}} {
		code, out, errOut := evalCLI(t, args...)
		if code != 0 || strings.Contains(out+errOut, strings.TrimPrefix(key, "sk_")) || !strings.Contains(out, "[REDACTED]") {
			t.Errorf("%v: exit %d\n%s\n%s", args, code, out, errOut)
		}
	}
}
