package jsonerr

import (
	"encoding/json"
	"strings"
	"testing"
)

// Each kind of decoding failure is said with its place, in JSON's words.
func TestDescribe(t *testing.T) {
	t.Parallel()
	type doc struct {
		Tools []string `json:"tools"`
		Count int      `json:"count"`
	}
	for _, tt := range []struct{ in, want string }{
		{"{\n  \"tools\": [\"a\",],\n}", `line 2, column 17: invalid character ']' looking for beginning of value`},
		{`{"tools": {}}`, `line 1, column 12: field "tools" must be an array, not an object`},
		{`{"count": "x"}`, `line 1, column 14: field "count" must be an integer, not a string`},
		{`[1]`, `line 1, column 2: the document must be an object, not an array`},
		{`{"tools": [`, `line 1, column 12: the input ends before its JSON value does`},
		{`{"counts": 1}`, `line 1, column 2: unknown field "counts"`},
	} {
		var d doc
		dec := json.NewDecoder(strings.NewReader(tt.in))
		dec.DisallowUnknownFields()
		err := dec.Decode(&d)
		if err == nil {
			t.Fatalf("%q decoded", tt.in)
		}
		if got := Describe([]byte(tt.in), err).Error(); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.in, got, tt.want)
		}
	}
}

// nested decodes its value with a decoder of its own, as evals.Step does:
// a type error's offset counts from the value's start, so it is marked
// unknown (-1).
type nested struct{ N int }

func (n *nested) UnmarshalJSON(b []byte) error {
	type plain nested
	err := json.Unmarshal(b, (*plain)(n))
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		te.Offset = -1
	}
	return err
}

// A type error raised inside a type's own UnmarshalJSON is placed by its
// field path: at the first value there of the kind refused.
func TestDescribeNestedUnmarshaler(t *testing.T) {
	t.Parallel()
	type doc struct {
		Items []nested `json:"items"`
		Other nested   `json:"other"`
	}
	for _, tt := range []struct{ in, want string }{
		{"{\"items\":[{\"N\":1},\n {\"N\": \"x\"}]}", `line 2, column 8: field "items.N" must be an integer, not a string`},
		{"{\"other\":{\"N\":1}, \"items\":[{\"N\":[]}]}", `line 1, column 33: field "items.N" must be an integer, not an array`},
		{"{\"items\":[{\"N\":1.5}]}", `line 1, column 16: field "items.N" must be an integer, not a number 1.5`},
		// A valid number before the refused one: the literal tells them apart.
		{"{\"items\":[{\"N\":2},\n {\"N\":1.5}]}", `line 2, column 7: field "items.N" must be an integer, not a number 1.5`},
	} {
		var d doc
		err := json.Unmarshal([]byte(tt.in), &d)
		if err == nil {
			t.Fatalf("%q decoded", tt.in)
		}
		if got := Describe([]byte(tt.in), err).Error(); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.in, got, tt.want)
		}
	}
}
