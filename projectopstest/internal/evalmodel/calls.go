package evalmodel

import (
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/projectops/projectops-go/evals"
)

// CallMatches reports whether actual is a call of want's tool whose
// arguments match want's under partial matching (ArgsMatch).
func CallMatches(want, actual evals.ToolCall) bool {
	return want.ToolName == actual.ToolName && ArgsMatch(want.Arguments, actual.Arguments, evals.ArgumentMatchingPartial)
}

// ArgsMatch compares a call's arguments with the expected ones as the
// service's matcher does. partial (or ""): every expected key matches,
// others are not checked, and an expected value that is one of the words
// any, string, number, boolean, object, array or null (any case, spaces
// trimmed) checks the argument's JSON type instead; exact: equal as JSON
// values, no extra keys; ignore: always.
func ArgsMatch(want, got map[string]any, mode string) bool {
	switch mode {
	case evals.ArgumentMatchingIgnore:
		return true
	case evals.ArgumentMatchingExact:
		return jsonEqual(orEmpty(want), orEmpty(got))
	}
	for k, v := range want {
		g, present := got[k]
		if ok, isType := typeCheck(v, g, present); isType {
			if !ok {
				return false
			}
			continue
		}
		if !present || !jsonEqual(v, g) {
			return false
		}
	}
	return true
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// typeCheck applies an expected value that names a JSON type to an
// argument; isType is false when the value names none.
func typeCheck(want, got any, present bool) (ok, isType bool) {
	w, isString := want.(string)
	if !isString {
		return false, false
	}
	switch strings.ToLower(strings.TrimSpace(w)) {
	case "any":
		return present, true
	case "string":
		_, ok = got.(string)
	case "number":
		switch got.(type) {
		case float64, float32, int, int64, json.Number:
			ok = true
		}
	case "boolean":
		_, ok = got.(bool)
	case "object":
		_, ok = normalize(got).(map[string]any)
	case "array":
		_, ok = normalize(got).([]any)
	case "null":
		ok = present && got == nil
	default:
		return false, false
	}
	return ok && present, true
}

func jsonEqual(a, b any) bool {
	return reflect.DeepEqual(normalize(a), normalize(b))
}

// normalize maps a value to its JSON form (numbers as float64, objects as
// maps), so 3 and 3.0 or a struct and its map compare equal.
func normalize(v any) any {
	switch v.(type) {
	case string, bool, nil, float64:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// JSONString is v as compact JSON ("{}" for nil).
func JSONString(v any) string {
	if v == nil {
		return "{}"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}

// ExpectedCalls lists a test's toolCalledWith assertions.
func ExpectedCalls(t evals.Test) []evals.ToolCall {
	out := []evals.ToolCall{}
	for _, st := range t.Steps {
		if a := st.Assertion; st.Kind == evals.KindAssert && a != nil && a.Type == evals.AssertToolCalledWith {
			out = append(out, evals.ToolCall{ToolName: a.ToolName, Arguments: a.Args.Expected()})
		}
	}
	return slices.Clip(out)
}

// sensitiveKey matches the argument names whose values a verdict's reason
// never shows, as the service's evaluator scrubs them (reasons are stored
// with the iteration).
var sensitiveKey = regexp.MustCompile(`(?i)(authorization|bearer|password|passwd|secret|token|api[_-]?key|access[_-]?key|client[_-]?secret|cookie|credential|private[_-]?key)`)

// Redacted is the marker that stands for a scrubbed value.
const Redacted = "«redacted»"

// Brief is v as compact JSON for a reason: values under sensitive keys
// replaced at any depth, at most 200 characters.
func Brief(v any) string {
	s := JSONString(scrub(normalize(v), 0))
	if r := []rune(s); len(r) > maxBrief {
		s = string(r[:maxBrief]) + "…"
	}
	return s
}

const maxBrief = 200

func scrub(v any, depth int) any {
	if depth > 6 {
		return "«depth-limit»"
	}
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			if sensitiveKey.MatchString(k) {
				out[k] = Redacted
			} else {
				out[k] = scrub(x, depth+1)
			}
		}
		return out
	case []any:
		out := make([]any, 0, min(len(v), 20))
		for _, x := range v[:min(len(v), 20)] {
			out = append(out, scrub(x, depth+1))
		}
		return out
	}
	return v
}

// Pair matches each of n expected items with a distinct one of m actual
// items where ok(k, j) allows, as many as possible (augmenting paths; the
// lists are a prompt's few calls). match[k] is k's actual item, -1 for none.
func Pair(n, m int, ok func(k, j int) bool) []int {
	match, owner := make([]int, n), make([]int, m)
	for i := range match {
		match[i] = -1
	}
	for i := range owner {
		owner[i] = -1
	}
	var try func(k int, seen []bool) bool
	try = func(k int, seen []bool) bool {
		for j := range m {
			if seen[j] || !ok(k, j) {
				continue
			}
			seen[j] = true
			if owner[j] < 0 || try(owner[j], seen) {
				owner[j], match[k] = k, j
				return true
			}
		}
		return false
	}
	for k := range n {
		try(k, make([]bool, m))
	}
	return match
}
