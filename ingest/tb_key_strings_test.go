package ingest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// spoolWithKey records r with a TBRecorder whose APIKey is key and returns
// every spool file's bytes.
func spoolWithKey(t *testing.T, key string, r ingest.Result) string {
	t.Helper()
	dir := t.TempDir()
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: dir, Suite: "keys", APIKey: key, Getenv: func(string) string { return "" }})
	rec.Record(&fakeTB{name: "TestKeys"}, r)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var spooled strings.Builder
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		spooled.Write(b)
	}
	return spooled.String()
}

// A short APIKey that is also a field's name is taken out of the result's
// text, not out of the name: matched across the raw document, it renamed
// "passed", and a passing result was spooled as failing.
func TestTBRecorderShortKeyKeepsFieldName(t *testing.T) {
	t.Parallel()
	got := spoolWithKey(t, "passed", ingest.Result{CaseTitle: "c", Passed: true, Error: "auth with passed refused"})
	if !strings.Contains(got, `"passed":true`) || strings.Contains(got, "with passed") {
		t.Errorf("want the field kept and the text redacted: %s", got)
	}
}

// A user's map key that is no name the SDK writes is cleaned as any
// string is.
func TestTBRecorderKeyInMetadataKeyRedacted(t *testing.T) {
	t.Parallel()
	got := spoolWithKey(t, "k7zq", ingest.Result{CaseTitle: "c", Metadata: map[string]any{"k7zq": 1}})
	if strings.Contains(got, "k7zq") || !strings.Contains(got, `"metadata":{"`+ingest.Redacted+`":1}`) {
		t.Errorf("key spooled as a metadata key: %s", got)
	}
}

// A digits-only APIKey equal to, or inside, a number of the result is
// taken out of the text and the number is kept: matched across the raw
// document, the number's replacement broke the JSON, and ScrubRaw gave the
// whole document back untouched, the key in clear in the error.
func TestTBRecorderDigitsKeyBesideNumber(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		key      string
		duration float64
		number   string
	}{{"20240101", 20240101, `"durationMs":20240101`}, {"1234", 123456, `"durationMs":123456`}} {
		got := spoolWithKey(t, c.key, ingest.Result{CaseTitle: "c", DurationMs: c.duration, Error: "auth with " + c.key + " refused"})
		if strings.Contains(got, "with "+c.key) || !strings.Contains(got, c.number) {
			t.Errorf("key %s: want the text redacted and %s kept: %s", c.key, c.number, got)
		}
	}
}
