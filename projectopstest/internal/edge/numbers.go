package edge

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// parseNumbers parses the JSON value data with its numbers as
// json.Number, so each keeps its literal: a float64 would turn
// 9223372036854775807 into 2^63, which no int64 holds, and 2.0 into 2.
func parseNumbers(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("edge: trailing data after a JSON value")
	}
	return v, nil
}

// integralNumbers returns v with every whole number written otherwise
// (2.0, 1e0) rewritten as the integer it equals (see integralText), and
// whether it changed any. Other literals are kept as written.
func integralNumbers(v any) (any, bool) {
	switch x := v.(type) {
	case json.Number:
		if s := integralText(x); s != "" {
			return json.Number(s), true
		}
	case []any:
		changed := false
		out := make([]any, len(x))
		for i, e := range x {
			var c bool
			out[i], c = integralNumbers(e)
			changed = changed || c
		}
		return out, changed
	case map[string]any:
		changed := false
		out := make(map[string]any, len(x))
		for k, e := range x {
			var c bool
			out[k], c = integralNumbers(e)
			changed = changed || c
		}
		return out, changed
	}
	return v, false
}
