package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// TestPrintIterationsNullIsDash: eval iterations prints a null tokensUsed
// or durationMs (no usage, not terminal) as "-", and a finished model-free
// iteration's 0 tokens as 0.
func TestPrintIterationsNullIsDash(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	printIterations(&b, []evals.Iteration{
		{ID: "it_1", Title: "done", IterationNumber: 1, Status: evals.StatusCompleted, TokensUsed: new(0.0), DurationMs: new(12.4),
			ActualToolCalls: []evals.ToolCall{{ToolName: "echo"}}},
		{ID: "it_2", Title: "going", IterationNumber: 2, Status: evals.StatusRunning, ActualToolCalls: []evals.ToolCall{{ToolName: "echo"}}},
	}, nil)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("table:\n%s", b.String())
	}
	if f := strings.Fields(lines[1]); len(f) < 8 || f[6] != "0" || f[7] != "12" {
		t.Errorf("finished iteration's TOKENS and MS: %q", lines[1])
	}
	if f := strings.Fields(lines[2]); len(f) < 8 || f[6] != "-" || f[7] != "-" {
		t.Errorf("running iteration's TOKENS and MS (null): %q", lines[2])
	}
}
