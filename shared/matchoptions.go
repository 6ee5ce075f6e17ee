package shared

import (
	"bytes"
	"encoding/json"
	"errors"
)

// MatchOptions is how an eval's actual tool calls are matched to its
// expected ones (the service's EvalMatchOptions): on an ingested result
// (ingest.MatchOptions), an inline test case or a run's override
// (evals.MatchOptions). Each field left zero is unset: the layer below
// (the suite's settings, then the case's, then the run's override)
// decides it.
type MatchOptions struct {
	// ToolCallOrder is "ignore" (any order), "superset" (the expected
	// calls in order, extra calls between them allowed) or "strict" (the
	// exact sequence).
	ToolCallOrder string `json:"toolCallOrder,omitempty"`
	// MaxExtraToolCalls caps the actual calls no expected call pairs
	// with; a pointer so that 0 (no extra call) is sent. Nil with
	// UnlimitedExtraToolCalls false leaves it unset.
	MaxExtraToolCalls *int `json:"maxExtraToolCalls,omitempty"`
	// UnlimitedExtraToolCalls sends maxExtraToolCalls as null: any number
	// of extra calls, overriding a cap set on a lower layer, which leaving
	// it unset would keep. Decoding null sets it. It cannot go with a
	// MaxExtraToolCalls (encoding fails).
	UnlimitedExtraToolCalls bool `json:"-"`
	// AllowExtraToolCalls is the service's older spelling of the same
	// bound (true reads as unlimited, false as 0), which it still takes
	// when maxExtraToolCalls is unset; prefer MaxExtraToolCalls.
	AllowExtraToolCalls *bool `json:"allowExtraToolCalls,omitempty"`
	// ArgumentMatching is "exact", "partial" or "ignore".
	ArgumentMatching string `json:"argumentMatching,omitempty"`
}

// Tool-call orders of MatchOptions.ToolCallOrder, as the service spells
// them.
const (
	// ToolCallOrderIgnore matches the expected calls in any order.
	ToolCallOrderIgnore = "ignore"
	// ToolCallOrderSuperset wants the expected calls in order, with extra
	// calls allowed between them.
	ToolCallOrderSuperset = "superset"
	// ToolCallOrderStrict wants exactly the expected sequence.
	ToolCallOrderStrict = "strict"
)

// Argument matching modes of MatchOptions.ArgumentMatching, as the
// service spells them.
const (
	// ArgumentMatchingExact wants arguments deeply equal to the expected
	// ones: no other keys, no placeholders.
	ArgumentMatchingExact = "exact"
	// ArgumentMatchingPartial (the default) checks the expected keys
	// alone, reading placeholders such as "string" as type checks.
	ArgumentMatchingPartial = "partial"
	// ArgumentMatchingIgnore does not compare arguments.
	ArgumentMatchingIgnore = "ignore"
)

// ErrExtraToolCallsConflict is the encoding error of a MatchOptions that
// sets both MaxExtraToolCalls and UnlimitedExtraToolCalls.
var ErrExtraToolCallsConflict = errors.New("MatchOptions sets both MaxExtraToolCalls and UnlimitedExtraToolCalls")

// matchOptionsWire is MatchOptions as sent: maxExtraToolCalls as raw JSON,
// so absent, null and a count are three values.
type matchOptionsWire struct {
	ToolCallOrder       string          `json:"toolCallOrder,omitempty"`
	MaxExtraToolCalls   json.RawMessage `json:"maxExtraToolCalls,omitempty"`
	AllowExtraToolCalls *bool           `json:"allowExtraToolCalls,omitempty"`
	ArgumentMatching    string          `json:"argumentMatching,omitempty"`
}

// matchOptionsPlain is MatchOptions without its methods, to decode into.
type matchOptionsPlain MatchOptions

var jsonNull = []byte("null")

// MarshalJSON sends maxExtraToolCalls as null for UnlimitedExtraToolCalls,
// which a plain pointer could only leave out.
func (m MatchOptions) MarshalJSON() ([]byte, error) {
	w := matchOptionsWire{ToolCallOrder: m.ToolCallOrder, AllowExtraToolCalls: m.AllowExtraToolCalls,
		ArgumentMatching: m.ArgumentMatching}
	switch {
	case m.UnlimitedExtraToolCalls && m.MaxExtraToolCalls != nil:
		return nil, ErrExtraToolCallsConflict
	case m.UnlimitedExtraToolCalls:
		w.MaxExtraToolCalls = jsonNull
	case m.MaxExtraToolCalls != nil:
		b, err := json.Marshal(*m.MaxExtraToolCalls)
		if err != nil {
			return nil, err
		}
		w.MaxExtraToolCalls = b
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads a null maxExtraToolCalls as UnlimitedExtraToolCalls.
// Like encoding/json it keeps the fields the object does not name.
func (m *MatchOptions) UnmarshalJSON(b []byte) error {
	p := matchOptionsPlain(*m)
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	var w struct {
		MaxExtraToolCalls json.RawMessage `json:"maxExtraToolCalls"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if raw := bytes.TrimSpace(w.MaxExtraToolCalls); len(raw) > 0 {
		// Named: a count (decoded above) or null, never both.
		p.UnlimitedExtraToolCalls = bytes.Equal(raw, jsonNull)
	}
	*m = MatchOptions(p)
	return nil
}
