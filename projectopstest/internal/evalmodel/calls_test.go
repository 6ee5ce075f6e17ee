package evalmodel

import (
	"strings"
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
		{Kind: evals.KindAssert, Assertion: &evals.Assertion{Type: evals.AssertToolCalledWith, ToolName: "add", Args: &evals.ArgMatcher{Args: map[string]any{"a": 1}}}},
		{Kind: evals.KindPrompt},
	}}
	if got := ExpectedCalls(test); len(got) != 1 || got[0].ToolName != "add" {
		t.Errorf("ExpectedCalls = %v", got)
	}
}

// ArgsMatch is the service's matcher: partial with type words, exact,
// ignore.
func TestArgsMatch(t *testing.T) {
	t.Parallel()
	got := map[string]any{"city": "Lyon", "days": 3.0, "opts": map[string]any{"u": "c"}, "tags": []any{"a"}, "none": nil}
	for _, tt := range []struct {
		want map[string]any
		mode string
		ok   bool
	}{
		{map[string]any{"city": "Lyon"}, "", true},
		{map[string]any{"city": "Paris"}, evals.ArgumentMatchingPartial, false},
		{map[string]any{"city": "string", "days": " Number ", "opts": "object", "tags": "array", "none": "null"}, "", true},
		{map[string]any{"city": "number"}, "", false},
		{map[string]any{"missing": "any"}, "", false},
		{map[string]any{"none": "any"}, "", true}, // present, even as null
		{map[string]any{"days": 3}, "", true},     // 3 and 3.0 are one JSON number
		{map[string]any{}, "", true},
		{map[string]any{"city": "Lyon"}, evals.ArgumentMatchingExact, false},
		{got, evals.ArgumentMatchingExact, true},
		{map[string]any{"city": "Paris"}, evals.ArgumentMatchingIgnore, true},
	} {
		if ok := ArgsMatch(tt.want, got, tt.mode); ok != tt.ok {
			t.Errorf("ArgsMatch(%v, %q) = %v, want %v", tt.want, tt.mode, ok, tt.ok)
		}
	}
}

// A reason never shows a value under a sensitive key, at any depth, and
// stays short.
func TestBriefScrubs(t *testing.T) {
	t.Parallel()
	got := Brief(map[string]any{"city": "Lyon", "apiKey": "sk-live-1", "headers": map[string]any{"Authorization": "Bearer x-2"},
		"list": []any{map[string]any{"client_secret": "cs-3"}}, "long": strings.Repeat("y", 500)})
	for _, secret := range []string{"sk-live-1", "Bearer x-2", "cs-3"} {
		if strings.Contains(got, secret) {
			t.Errorf("Brief shows %q: %s", secret, got)
		}
	}
	if !strings.Contains(got, Redacted) || len([]rune(got)) > 201 {
		t.Errorf("Brief = %s (%d runes)", got, len([]rune(got)))
	}
}

// Pair finds the most pairs: a lenient first item does not take what a
// stricter later one needs.
func TestPair(t *testing.T) {
	t.Parallel()
	// expected 0 takes any actual; expected 1 only actual 0.
	got := Pair(2, 2, func(k, j int) bool { return k == 0 || j == 0 })
	if got[0] != 1 || got[1] != 0 {
		t.Errorf("Pair = %v, want [1 0]", got)
	}
	if got := Pair(2, 1, func(int, int) bool { return true }); got[0] != 0 || got[1] != -1 {
		t.Errorf("Pair with one actual = %v", got)
	}
}
