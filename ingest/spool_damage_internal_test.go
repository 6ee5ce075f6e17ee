package ingest

import "testing"

// A line is damaged unless it is a record Resume knows: a chunk whose kind
// or results were lost must be reported, not vanish.
func TestDecodeRecord(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		line string
		ok   bool
	}{
		{`{"kind":"chunk","seq":1,"results":[{"caseTitle":"a"}]}`, true},
		{`{"kind":"ack","seq":1}`, true},
		{`{"kind":"refused","seq":1}`, true},
		{`{"kind":"run","v":1,"project":"p","run":{"suiteName":"s","externalRunId":"e"}}`, true},
		{`{"kind":"chunj","seq":1,"results":[{"caseTitle":"a"}]}`, false},
		{`{"kind":"chunk","seq":1}`, false},
		{`{"kind":"chunk","seq":1,"results":{"caseTitle":"a"}}`, false},
		{`{"kind":"chunk","seq":1,"results":[{"caseTitle":"a"}`, false},
		{"\x00\x00\x00", false},
	} {
		if _, ok := decodeRecord([]byte(tt.line)); ok != tt.ok {
			t.Errorf("decodeRecord(%q) ok = %v, want %v", tt.line, ok, tt.ok)
		}
	}
}
