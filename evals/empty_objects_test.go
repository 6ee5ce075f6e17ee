package evals_test

import (
	"encoding/json"
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// TestEmptyObjectsKept: the reference's EvalTestStep arguments and action
// are open objects, so {} is a value: a toolCall step for a tool that takes
// no arguments says so. An empty map, set or decoded, is sent as {}; a nil
// one is left out. An expected tool call's arguments {} likewise differ
// from none under exact argument matching.
func TestEmptyObjectsKept(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{"id":"s1","kind":"toolCall","toolName":"ping","arguments":{}}`,
		`{"id":"s2","kind":"interact","action":{}}`,
	} {
		var st evals.Step
		if err := json.Unmarshal([]byte(in), &st); err != nil {
			t.Fatal(err)
		}
		out, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != in {
			t.Errorf("step %s re-encodes as %s", in, out)
		}
	}
	out, _ := json.Marshal(evals.ToolCallStep("s3", "ping", map[string]any{}))
	if want := `{"id":"s3","kind":"toolCall","toolName":"ping","arguments":{}}`; string(out) != want {
		t.Errorf("ToolCallStep with empty args = %s, want %s", out, want)
	}
	out, _ = json.Marshal(evals.ToolCallStep("s4", "ping", nil))
	if want := `{"id":"s4","kind":"toolCall","toolName":"ping"}`; string(out) != want {
		t.Errorf("ToolCallStep with nil args = %s, want %s", out, want)
	}
	out, _ = json.Marshal(evals.ToolCall{ToolName: "ping", Arguments: map[string]any{}})
	if want := `{"toolName":"ping","arguments":{}}`; string(out) != want {
		t.Errorf("ToolCall = %s, want %s", out, want)
	}
}
