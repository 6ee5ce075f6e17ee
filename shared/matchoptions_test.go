package shared_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/projectops/projectops-go/shared"
)

// A null maxExtraToolCalls (unlimited) survives a decode and an encode,
// apart from an absent one and from 0; a count decoded over unlimited
// replaces it, and a field the object does not name is kept.
func TestMatchOptionsNullRoundTrip(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"maxExtraToolCalls":null}`, `{"maxExtraToolCalls":0}`, `{}`,
		`{"toolCallOrder":"strict","maxExtraToolCalls":3,"allowExtraToolCalls":false,"argumentMatching":"exact"}`} {
		var m shared.MatchOptions
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatal(err)
		}
		if b, err := json.Marshal(m); err != nil || string(b) != body {
			t.Errorf("%s round-trips to %s, %v", body, b, err)
		}
	}
	m := shared.MatchOptions{UnlimitedExtraToolCalls: true, ToolCallOrder: "ignore"}
	if err := json.Unmarshal([]byte(`{"maxExtraToolCalls":4}`), &m); err != nil {
		t.Fatal(err)
	}
	if m.UnlimitedExtraToolCalls || m.MaxExtraToolCalls == nil || *m.MaxExtraToolCalls != 4 || m.ToolCallOrder != "ignore" {
		t.Errorf("decoded over: %+v", m)
	}
	var bad shared.MatchOptions
	if err := json.Unmarshal([]byte(`{"maxExtraToolCalls":"2"}`), &bad); err == nil {
		t.Errorf("a string count decoded: %+v", bad)
	}
	one := 1
	if _, err := json.Marshal(shared.MatchOptions{MaxExtraToolCalls: &one, UnlimitedExtraToolCalls: true}); !errors.Is(err, shared.ErrExtraToolCallsConflict) {
		t.Errorf("conflict encodes: %v", err)
	}
}
