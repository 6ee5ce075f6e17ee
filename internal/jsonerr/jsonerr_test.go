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
