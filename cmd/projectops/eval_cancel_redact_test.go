package main

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// eval cancel prints the run it cancelled, notes and all, and eval
// iterations prints each test's title: service text that may quote the
// API key, so both are redacted as eval status's output is.
func TestEvalCancelAndIterationsRedact(t *testing.T) {
	// The run is held in its first iteration, so the cancel always finds
	// it in flight (a finished run cannot be cancelled: 409).
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	evalServer(t, projectopstest.WithEvalHooks(projectopstest.EvalHooks{BeforeIteration: func(ctx context.Context, _, _ string) error {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil
	}}))
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
