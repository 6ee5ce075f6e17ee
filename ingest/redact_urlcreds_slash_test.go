package ingest

import (
	"strings"
	"testing"
)

// URL credentials in a JSON document whose encoder escapes every '/' (the
// code itself names such encoders: withValues adds a \/ form for them, and
// hasEscapedTokenChar searches for \/) are kept: reURLCreds wants "://"
// written as is, and applyMode gates on bytes.Contains(b, "://").
func TestURLCredsEscapedSlashes(t *testing.T) {
	for _, doc := range []string{
		`{"url":"https:\/\/admin:hunter2secret@db.example.com\/x"}`,
		`{"output":"GET https:\/\/admin:hunter2secret@db.example.com\/x failed"}`,
	} {
		if got := string(redactor{}.apply([]byte(doc))); strings.Contains(got, "hunter2secret") {
			t.Errorf("URL credentials kept:\n in  %s\n out %s", doc, got)
		}
	}
}

// The \/ spelling in text (JSON quoted in a log line) and in JSON quoted
// in JSON; redacting again changes nothing.
func TestURLCredsEscapedSlashesQuotedAndIdempotent(t *testing.T) {
	for _, in := range []string{
		`body={"url":"https:\/\/admin:hunter2secret@db.example.com\/x"}`,
		`{"output":"{\"url\":\"https:\\\/\\\/admin:hunter2secret@db.example.com\\\/x\"}"}`,
		`{"url":"https:/\/admin:hunter2secret@db\/x"}`,
	} {
		once := redactor{}.apply([]byte(in))
		if strings.Contains(string(once), "hunter2secret") {
			t.Errorf("URL credentials kept:\n in  %s\n out %s", in, once)
		}
		if twice := (redactor{}).apply(once); string(twice) != string(once) {
			t.Errorf("not idempotent: %s -> %s", once, twice)
		}
		if got := string(redactor{}.text(in)); strings.Contains(got, "hunter2secret") {
			t.Errorf("text: URL credentials kept:\n in  %s\n out %s", in, got)
		}
	}
}
