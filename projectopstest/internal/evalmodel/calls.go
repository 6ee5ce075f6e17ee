package evalmodel

import (
	"encoding/json"
	"reflect"
	"slices"

	"github.com/projectops/projectops-go/evals"
)

// CallMatches reports whether actual is a call of want's tool carrying at
// least want's arguments, compared as JSON values.
func CallMatches(want, actual evals.ToolCall) bool {
	if want.ToolName != actual.ToolName {
		return false
	}
	for k, v := range want.Arguments {
		got, ok := actual.Arguments[k]
		if !ok || !jsonEqual(v, got) {
			return false
		}
	}
	return true
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
			out = append(out, evals.ToolCall{ToolName: a.ToolName, Arguments: a.Args})
		}
	}
	return slices.Clip(out)
}
