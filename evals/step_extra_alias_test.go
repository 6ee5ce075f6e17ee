package evals

import (
	"encoding/json"
	"testing"
)

// Decoding into a copy of a Step leaves the original's Extra alone: the
// copy shares its map, which merging new members into changed both.
func TestStepDecodeIntoCopyLeavesOriginalExtra(t *testing.T) {
	orig := Step{ID: "s1", Kind: KindPrompt, Extra: map[string]json.RawMessage{"a": json.RawMessage(`1`)}}
	cp := orig
	if err := json.Unmarshal([]byte(`{"b":2}`), &cp); err != nil {
		t.Fatal(err)
	}
	if _, ok := orig.Extra["b"]; ok {
		t.Errorf("original's Extra changed by decoding into a copy: %v", orig.Extra)
	}
}
