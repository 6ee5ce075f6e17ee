package ingest

import (
	"strings"
	"testing"
)

// docs/reporter.md (5968c3b): a closed header value followed by more runs to
// the line's end unless what follows ends a value in its spelling, among
// them "the quote that ends a string the header line is quoted in". valueEnds
// accepts ANY quote after blanks, an opening one on a line quoted in nothing
// included, so the rest of the header line is kept; and an already-redacted
// value "followed by more" is kept as is, against the doc.
func TestQuoteAfterClosedValueIsMoreOfTheValue(t *testing.T) {
	for _, in := range []string{
		`Authorization: "Bearer a" "hunter2secret"`,
		`Authorization: [x] 'Basic hunter2secret'`,
		`Cookie: "a=1" 'session=hunter2secret'`,
		"X-Api-Key: [x]\t\"hunter2secret\"",
		`Authorization: [REDACTED] 'hunter2secret'`,
	} {
		for name, got := range map[string]string{"text": string(redactor{}.text(in)), "html": string(redactor{}.html(in))} {
			if strings.Contains(got, "hunter2secret") {
				t.Errorf("%s: rest of a header line kept after a closed value:\n in  %q\n out %q", name, in, got)
			}
		}
	}
}

// A quote that closes a string the header line is quoted in still ends a
// closed value: what follows it ends a value itself. Redacting again
// changes nothing.
func TestQuoteClosingEnclosingStringEndsValue(t *testing.T) {
	for in, want := range map[string]string{
		`{"message":"Cookie: [x]"} keep`:           `{"message":"Cookie: [[REDACTED]]"} keep`,
		`f('Cookie: [x]', keep)`:                   `f('Cookie: [[REDACTED]]', keep)`,
		`{'Authorization': 'x', 'keep': 1}`:        `{'Authorization': '[REDACTED]', 'keep': 1}`,
		`{'Cookie: [x]': 1, 'keep': 2}`:            `{'Cookie: [[REDACTED]]': 1, 'keep': 2}`,
		`"Authorization: [x]",` + "\nkeep":         `"Authorization: [[REDACTED]]",` + "\nkeep",
		`say '"Cookie: [x]"' ` + "\nkeep":          `say '"Cookie: [[REDACTED]]"' ` + "\nkeep",
		`Authorization: "Bearer a" "b"` + "\nkeep": `Authorization: "[REDACTED]"` + "\nkeep",
	} {
		got := string(redactor{}.text(in))
		if got != want {
			t.Errorf("redactor.text(%q) = %q, want %q", in, got, want)
		}
		if again := string(redactor{}.text(got)); again != got {
			t.Errorf("not idempotent: %q -> %q", got, again)
		}
	}
}
