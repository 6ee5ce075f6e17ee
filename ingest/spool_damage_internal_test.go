package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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

// ackAll ends a last line without its newline only when it is a whole
// record (eachLine reads it), and cuts a torn one off (eachLine skips it;
// ended, it would read as a damaged line), a long one too, whose newline
// is blocks before the end; it never changes a whole record.
func TestAckAllMendsTheLastLine(t *testing.T) {
	t.Parallel()
	const head = `{"kind":"run","v":1,"project":"p","run":{"suiteName":"s","externalRunId":"e"}}` + "\n" +
		`{"kind":"chunk","seq":1,"results":[{"caseTitle":"a"}]}` + "\n"
	const acks = `{"kind":"ack","seq":1}` + "\n"
	whole := `{"kind":"chunk","seq":2,"results":[{"caseTitle":"b"}]}`
	long := `{"kind":"chunk","seq":2,"results":[{"caseTitle":"` + strings.Repeat("x", 200<<10)
	for _, tt := range []struct{ name, tail, want string }{
		{"ended", "", head + acks},
		{"whole", whole, head + whole + "\n" + acks + `{"kind":"ack","seq":2}` + "\n"},
		{"torn", `{"kind":"chunk","seq":2,"results":[{"caseTi`, head + acks},
		{"torn long", long, head + acks},
		{"torn blank", "  ", head + acks},
	} {
		p := filepath.Join(t.TempDir(), "x"+SpoolExt)
		if err := os.WriteFile(p, []byte(head+tt.tail), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := ackAll(p); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("%s: file after ackAll = %.200q, want %.200q", tt.name, b, tt.want)
		}
		d, err := spoolDamage(p)
		if err != nil || d != nil {
			t.Errorf("%s: damage after ackAll = %v, %v", tt.name, d, err)
		}
	}
}
