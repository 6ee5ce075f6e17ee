package evals_test

import (
	"encoding/json"
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// TestEmptyObjectsKept: the reference's EvalTestStep arguments and action
// are open objects, so {} is a value, kept on a round trip; a nil map is
// left out, but a toolCall step's arguments are always sent, as the
// service's current step schema requires them (ToolCallStep(id, tool, nil)
// was refused there).
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
	if want := `{"id":"s4","kind":"toolCall","toolName":"ping","arguments":{}}`; string(out) != want {
		t.Errorf("ToolCallStep with nil args = %s, want %s", out, want)
	}
	out, _ = json.Marshal(evals.Step{ID: "s5", Kind: evals.KindInteract})
	if want := `{"id":"s5","kind":"interact"}`; string(out) != want {
		t.Errorf("interact step with nil action = %s, want %s", out, want)
	}
	out, _ = json.Marshal(evals.ToolCall{ToolName: "ping", Arguments: map[string]any{}})
	if want := `{"toolName":"ping","arguments":{}}`; string(out) != want {
		t.Errorf("ToolCall = %s, want %s", out, want)
	}
}
