package ingest

import (
	"strings"
	"testing"
)

// 278cfc8: a header value that starts in a redacted form (["[REDACTED]"])
// is now taken to end where that form ends, and then it is "closed", so
// what follows on the line is no longer folded into the value. Before the
// commit the same text came out as "Authorization: [[REDACTED]]".
func TestRedactRedactedFormKeepsRestOfValue(t *testing.T) {
	for _, s := range []string{
		`Authorization: ["[REDACTED]"]hunter2hunter2`,
		`Cookie: ["[REDACTED]"]sid=hunter2hunter2`,
		`Authorization: ["[REDACTED]"] Basic hunter2hunter2`,
		// Before 278cfc8 too: a closed value followed by more on a header
		// line, whose value is the rest of the line.
		`Authorization: [x] hunter2hunter2`,
		`Authorization: "x" hunter2hunter2`,
		`Authorization: [REDACTED]hunter2hunter2`,
		`Authorization: [[REDACTED]]hunter2hunter2`,
		`Cookie: "sid=1"; token=hunter2hunter2`,
		"Authorization: [x] Basic\n hunter2hunter2",
	} {
		var svc *Service
		if got := svc.RedactText(s); strings.Contains(got, "hunter2") {
			t.Errorf("RedactText(%q) = %q: the secret after the redacted form survives", s, got)
		}
		doc := string(encodeString(s))
		doc = `{"error":` + doc + `}`
		if got := string(svc.RedactJSON([]byte(doc))); strings.Contains(got, "hunter2") {
			t.Errorf("RedactJSON(%s) = %s: the secret survives", doc, got)
		}
	}
}

// A redacted form, or any closed value, that is the whole value is kept
// as it is, in every spelling whose values end where their delimiter
// does: Go's %v and %#v of an http.Header, JSON and Python-style text,
// logfmt, and a header line that ends with it. Redacting again changes
// nothing.
func TestRedactClosedValueEndsAtItsSpellingsEnd(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"map[Authorization:[Bearer x] Other:[y]]", "map[Authorization:[[REDACTED]] Other:[y]]"},
		{"map[Authorization:[[REDACTED]] Other:[y]]", "map[Authorization:[[REDACTED]] Other:[y]]"},
		{`http.Header{"Authorization":[]string{"x"}, "Other":[]string{"y"}}`, `http.Header{"Authorization":[]string{"[REDACTED]"}, "Other":[]string{"y"}}`},
		{`{"Authorization": "x", "b": 1}`, `{"Authorization": "[REDACTED]", "b": 1}`},
		{`{ 'Cookie': 'sid=1' }`, `{ 'Cookie': '[REDACTED]' }`},
		{`authorization="Bearer x" user=bob`, `authorization="[REDACTED]" user=bob`},
		{"Authorization: [REDACTED]\nnext", "Authorization: [REDACTED]\nnext"},
		{`Authorization: ["[REDACTED]"]`, `Authorization: ["[REDACTED]"]`},
		{"Authorization: [x] hunter2\n    x_test.go:5: next", "Authorization: [[REDACTED]]\n    x_test.go:5: next"},
		// A header line quoted in a string: its quote ends the value.
		{`calls: [echo {"message":"Cookie: [REDACTED]"}]`, `calls: [echo {"message":"Cookie: [REDACTED]"}]`},
		{`{'h': 'Cookie: [x]'}`, `{'h': 'Cookie: [[REDACTED]]'}`},
		{`{\"message\":\"Cookie: [REDACTED]\"}`, `{\"message\":\"Cookie: [REDACTED]\"}`},
	} {
		var svc *Service
		got := svc.RedactText(tc.in)
		if got != tc.want {
			t.Errorf("RedactText(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if again := svc.RedactText(got); again != got {
			t.Errorf("RedactText(%q) = %q, redacted again %q", tc.in, got, again)
		}
	}
}
