package evalmodel

import (
	"testing"

	"github.com/projectops/projectops-go/evals"
)

func TestCallMatches(t *testing.T) {
	t.Parallel()
	want := evals.ToolCall{ToolName: "add", Arguments: map[string]any{"a": 3}}
	for _, tt := range []struct {
		actual evals.ToolCall
		ok     bool
	}{
		{evals.ToolCall{ToolName: "add", Arguments: map[string]any{"a": 3.0, "b": 1.0}}, true}, // 3 == 3.0, extra args allowed
		{evals.ToolCall{ToolName: "add", Arguments: map[string]any{"a": "3"}}, false},
		{evals.ToolCall{ToolName: "add"}, false},
		{evals.ToolCall{ToolName: "sub", Arguments: map[string]any{"a": 3.0}}, false},
	} {
		if got := CallMatches(want, tt.actual); got != tt.ok {
			t.Errorf("CallMatches(%v, %v) = %v, want %v", want, tt.actual, got, tt.ok)
		}
	}
	if got := JSONString(nil); got != "{}" {
		t.Errorf("JSONString(nil) = %q", got)
	}
	test := evals.Test{Steps: []evals.Step{
		{Kind: evals.KindAssert, Assertion: &evals.Assertion{Type: evals.AssertToolCalledWith, ToolName: "add", Args: map[string]any{"a": 1}}},
		{Kind: evals.KindPrompt},
	}}
	if got := ExpectedCalls(test); len(got) != 1 || got[0].ToolName != "add" {
		t.Errorf("ExpectedCalls = %v", got)
	}
}
