package ingest_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// keySpellings are ways a result may quote the client's key: a test's
// output holding a request URL (percent-escaped, either hex case, part or
// all of it, two layers deep) or a JSON document (\u escapes), as the
// transport finds it in error text.
func keySpellings(key string) map[string]string {
	every := func(s, format string) string {
		var b strings.Builder
		for _, c := range []byte(s) {
			fmt.Fprintf(&b, format, c)
		}
		return b.String()
	}
	mid := len(key) / 2
	return map[string]string{
		"first letter escaped":  "%73" + key[1:],
		"middle char, lower":    key[:mid] + every(key[mid:mid+1], "%%%02x") + key[mid+1:],
		"middle char, upper":    key[:mid] + every(key[mid:mid+1], "%%%02X") + key[mid+1:],
		`JSON \u0073`:           `\u0073` + key[1:],
		`JSON \u00xx mid`:       key[:mid] + every(key[mid:mid+1], `\u%04x`) + key[mid+1:],
		"two layers":            "%2573" + key[1:],
		"every byte, lower hex": every(key, "%%%02x"),
	}
}

// The reporter takes the client's key out of what it sends, spools and
// redacts for printing in any spelling, as the transport does from error
// text: a spelling whose sk_ head alone was a token left the rest of the
// key ("%65r_…" after a middle escape) and one with no sk_ in it all of it.
func TestReporterRedactsKeyInAnySpelling(t *testing.T) {
	t.Parallel()
	f := setup(t)
	key := f.ws.APIKey
	tail := strings.ToLower(key[len(key)-6:])
	for name, spelt := range keySpellings(key) {
		text := "GET /v1/x?q=" + spelt + " failed"
		doc, _ := json.Marshal(map[string]any{"error": text, "n": 1})
		for what, got := range map[string]string{
			"RedactText": f.c.Ingest.RedactText(text),
			"RedactJSON": string(f.c.Ingest.RedactJSON(doc)),
		} {
			if strings.Contains(strings.ToLower(got), tail) || !strings.Contains(got, "failed") {
				t.Errorf("%s: %s(%q) = %q", name, what, text, got)
			}
			if what == "RedactJSON" && !json.Valid([]byte(got)) {
				t.Errorf("%s: RedactJSON broke the document: %s", name, got)
			}
		}
	}
	r, _ := newReporter(t, f.c, nil)
	var rs []ingest.Result
	for name, spelt := range keySpellings(key) {
		rs = append(rs, ingest.Result{CaseTitle: "leaky " + name, Error: "GET /v1/x?q=" + spelt})
	}
	record(t, r, rs)
	out, err := r.Close(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	its, _ := f.srv.IngestedIterations(out.Run.RunID)
	if len(its) != len(rs) {
		t.Fatalf("rows: %d, want %d", len(its), len(rs))
	}
	for _, it := range its {
		if sent := fmt.Sprintf("%+v", it); strings.Contains(strings.ToLower(sent), tail) {
			t.Errorf("the key is sent: %s", sent)
		}
	}
}

// A TBRecorder spools a result with its APIKey taken out in any spelling
// too: it replaced the key as written alone.
func TestTBRecorderRedactsKeyInAnySpelling(t *testing.T) {
	t.Parallel()
	const key = "sk_tb_Zq9Xw8Vu7Ts6Rp5"
	dir := t.TempDir()
	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: dir, Suite: "keys", APIKey: key, Getenv: func(string) string { return "" }})
	ft := &fakeTB{name: "TestKeys"}
	for name, spelt := range keySpellings(key) {
		rec.Record(ft, ingest.Result{CaseTitle: name, Error: "GET /v1/x?q=" + spelt})
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	var spooled strings.Builder
	for _, p := range files {
		b, _ := os.ReadFile(p)
		spooled.Write(b)
	}
	if got := spooled.String(); !strings.Contains(got, "GET /v1/x?q=") || strings.Contains(strings.ToLower(got), "rp5") {
		t.Errorf("spooled the key (or nothing) in %q: %s", files, got)
	}
}

// A TBRecorder's APIKey need not look like a client's (TBOptions does not
// check it): one of no sk_ shape is taken out as written too, not only in
// the escaped spellings the old gate let through.
func TestTBRecorderRedactsOddShapedKeyAsWritten(t *testing.T) {
	t.Parallel()
	for _, key := range []string{"odd-shaped-KEY-987654", " spaced KEY-987654", "short7"} {
		dir := t.TempDir()
		rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: dir, Suite: "keys", APIKey: key, Getenv: func(string) string { return "" }})
		rec.Record(&fakeTB{name: "TestKeys"}, ingest.Result{CaseTitle: "c", Error: "auth with " + key + " refused"})
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		var spooled strings.Builder
		for _, p := range files {
			b, _ := os.ReadFile(p)
			spooled.Write(b)
		}
		if got := spooled.String(); !strings.Contains(got, "auth with") || strings.Contains(got, key) {
			t.Errorf("key %q: spooled as written (or nothing): %s %q", key, got, files)
		}
	}
}
