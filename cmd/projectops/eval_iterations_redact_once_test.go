package main

import (
	"os"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// "eval iterations" redacts a reason that the service may have redacted
// already (and redacts it twice itself: failReasons, then the table): what
// it prints shows [REDACTED] once, never [[REDACTED]].
func TestEvalIterationsShowRedactedOnce(t *testing.T) {
	evalServer(t)
	key := os.Getenv("PROJECTOPS_API_KEY")
	demo := os.Getenv("EVAL_TEST_DEMO_SERVER")
	// The reason quotes the call, and the table cuts it at 100 runes: the
	// header comes first, as the service may have redacted it already.
	msg := "Cookie: [REDACTED]"
	file := writeTests(t, evals.RunParams{SuiteName: "once", ServerIDs: []string{demo}, Tests: []evals.Test{
		{Title: "t", Model: "openai/gpt-4o-mini", Steps: []evals.Step{
			evals.ToolCallStep("s1", "echo", map[string]any{"message": msg}),
			evals.AssertCalledWith("s2", "x", nil)}},
	}})
	code, out, errOut := evalCLI(t, "run", "--file", file, "--wait", "--interval", "1ms")
	if code != 1 {
		t.Fatalf("run: %d\n%s\n%s", code, out, errOut)
	}
	runID := strings.Fields(out[strings.LastIndex(out, "run run_"):])[1]
	code, out, errOut = evalCLI(t, "iterations", runID)
	if code != 0 {
		t.Fatalf("iterations: %d\n%s", code, errOut)
	}
	if !strings.Contains(out, "[REDACTED]") {
		t.Fatalf("iterations shows no [REDACTED]:\n%s", out)
	}
	if strings.Contains(out, "[[REDACTED]") || strings.Contains(out, "[REDACTED]]") || strings.Contains(out, key) {
		t.Errorf("iterations shows a redaction redacted again, or the key:\n%s", out)
	}
}
