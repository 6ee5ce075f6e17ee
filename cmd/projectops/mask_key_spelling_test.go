package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
)

// oddKey is a PROJECTOPS_API_KEY of no sk_ shape, which only the CLI's
// own mask (by value) knows; oddKeySpellings are ways a test's output, a
// trace or cobra's echo may quote it: percent- or JSON-escaped, in part,
// hex in either case, two layers deep.
const oddKey = "odd-shaped-KEY-987654"

var oddKeySpellings = map[string]string{
	"as written":           oddKey,
	"first letter escaped": "%6Fdd-shaped-KEY-987654",
	"lower-case hex":       "odd%2dshaped%2dKEY-987654",
	`JSON \u escape`:       `odd\u002dshaped-KEY-987654`,
	"two layers":           "odd%252Dshaped-KEY-987654",
}

// keyShown reports whether s holds a piece of oddKey that only the key
// has (its middle, in no spelling here escaped).
func keyShown(s string) bool { return strings.Contains(s, "shaped") }

// The error line masks PROJECTOPS_API_KEY in any spelling: cobra echoes
// an argument as typed, escapes and all.
func TestUsageErrorsMaskKeyAnySpelling(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", oddKey)
	for name, spelt := range oddKeySpellings {
		code, out, errOut := runCLI(t, "eval", spelt)
		if all := out + errOut; keyShown(all) || code != exitError {
			t.Errorf("%s: exit %d: %s", name, code, all)
		}
	}
}

// What report echoes of tests' output masks the key in any spelling.
func TestMaskWriterKeyAnySpelling(t *testing.T) {
	for name, spelt := range oddKeySpellings {
		var b bytes.Buffer
		m := &maskWriter{w: &b, secret: []byte(oddKey)}
		if _, err := m.Write([]byte("GET /x?key=" + spelt + " failed\n")); err != nil {
			t.Fatal(err)
		}
		if got, want := b.String(), "GET /x?key=[REDACTED] failed\n"; got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
}

// Text and JSON the CLI prints but did not write (an iteration's reason,
// a trace) mask the key in any spelling, the JSON staying JSON.
func TestOutputRedactionMasksKeyAnySpelling(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", oddKey)
	c, err := projectops.NewClient(option.WithAPIKey("sk_another_client_key_0123"), option.WithBaseURL("http://127.0.0.1:1/api/v1"))
	if err != nil {
		t.Fatal(err)
	}
	redact := outputRedactor(c)
	for name, spelt := range oddKeySpellings {
		if got := redact("reason: " + spelt); keyShown(got) || !strings.HasPrefix(got, "reason: ") {
			t.Errorf("%s: outputRedactor gives %q", name, got)
		}
		var b bytes.Buffer
		if err := redactedJSON(&b, c, map[string]string{"reason": "used " + spelt}); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); keyShown(got) || !json.Valid(b.Bytes()) {
			t.Errorf("%s: redactedJSON gives %s", name, got)
		}
	}
}
