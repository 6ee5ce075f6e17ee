package evals_test

import (
	"encoding/json"
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// An ArgMatcher keeps members it does not model, so expected arguments
// written flat reach the service as written (which refuses them) instead
// of becoming {"args": {}}, which matches any call of the tool.
func TestArgMatcherKeepsUnmodelledMembers(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":1}`, `{"a":1}`},
		{`{"args":{"a":1},"argumentMatching":"exact"}`, `{"args":{"a":1},"argumentMatching":"exact"}`},
		{`{"args":{},"x":true}`, `{"args":{},"x":true}`},
		{`{}`, `{"args":{}}`},
	} {
		var m evals.ArgMatcher
		if err := json.Unmarshal([]byte(tc.in), &m); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		got, err := json.Marshal(m)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: round trip %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	// Built in Go with nothing set: sent as {} (any call of the tool).
	if got, _ := json.Marshal(evals.ArgMatcher{}); string(got) != `{"args":{}}` {
		t.Errorf("zero ArgMatcher: %s", got)
	}
	// Extra members that name a modelled field are not sent, so they do
	// not stand in for the required args object.
	if got, _ := json.Marshal(evals.ArgMatcher{Extra: map[string]json.RawMessage{"Args": []byte(`{"a":1}`)}}); string(got) != `{"args":{}}` {
		t.Errorf("Extra naming args only: %s", got)
	}
	var bad evals.ArgMatcher
	if err := json.Unmarshal([]byte(`{"args":[1]}`), &bad); err == nil {
		t.Error("args as an array decoded without error")
	}
}
