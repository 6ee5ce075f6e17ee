package ingest_test

import (
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// go test rewrites every space of a subtest's name as "_": t.Run("key
// sk_live_…", …) is "TestNames/key_sk_live_…" in the stream (real go1.26.8
// output below), in the test's caseTitle, its metadata "test" and its
// "--- FAIL:" output line. An sk_ token after '_' is still one (see
// docs/reporter.md: "any `sk_…` token"), so it reaches neither the
// service nor the spool.
const secretSubtestName = `{"Action":"start","Package":"example.com/gt/secname"}
{"Action":"run","Package":"example.com/gt/secname","Test":"TestNames"}
{"Action":"output","Package":"example.com/gt/secname","Test":"TestNames","Output":"=== RUN   TestNames\n"}
{"Action":"run","Package":"example.com/gt/secname","Test":"TestNames/key_sk_live_ABCDEF1234567890abcdef"}
{"Action":"output","Package":"example.com/gt/secname","Test":"TestNames/key_sk_live_ABCDEF1234567890abcdef","Output":"=== RUN   TestNames/key_sk_live_ABCDEF1234567890abcdef\n"}
{"Action":"output","Package":"example.com/gt/secname","Test":"TestNames/key_sk_live_ABCDEF1234567890abcdef","Output":"    s_test.go:5: x\n"}
{"Action":"output","Package":"example.com/gt/secname","Test":"TestNames/key_sk_live_ABCDEF1234567890abcdef","Output":"--- FAIL: TestNames/key_sk_live_ABCDEF1234567890abcdef (0.00s)\n"}
{"Action":"fail","Package":"example.com/gt/secname","Test":"TestNames/key_sk_live_ABCDEF1234567890abcdef","Elapsed":0}
{"Action":"output","Package":"example.com/gt/secname","Test":"TestNames","Output":"--- FAIL: TestNames (0.00s)\n"}
{"Action":"fail","Package":"example.com/gt/secname","Test":"TestNames","Elapsed":0}
{"Action":"output","Package":"example.com/gt/secname","Output":"FAIL\n"}
{"Action":"fail","Package":"example.com/gt/secname","Elapsed":0.004}
`

// An sk_ token in a subtest's name is redacted in what is spooled and what
// the service receives: caseTitle, metadata and output alike.
func TestSkTokenInSubtestNameIsRedacted(t *testing.T) {
	const secret = "sk_live_ABCDEF1234567890abcdef"
	noLeakWith(t, func(*ingest.ReporterOptions) {}, secret, func(rep *ingest.Reporter) {
		if _, err := ingest.ReadGoTest(t.Context(), strings.NewReader(secretSubtestName), rep, ingest.GoTestOptions{}); err != nil {
			t.Fatal(err)
		}
	})
}

// RedactText and RedactJSON replace an sk_ token after any byte that is no
// ASCII letter or digit, and leave alone words that merely hold "sk_".
func TestRedactPublicSkTokenBoundary(t *testing.T) {
	var svc *ingest.Service // every rule but the client's key by value
	for _, tt := range []struct{ in, want string }{
		{"TestNames/key_sk_live_ABCDEF1234567890abcdef", "TestNames/key_[REDACTED]"},
		{"--- FAIL: TestX/key_sk_live_ABCDEF1234567890abcdef (0.00s)", "--- FAIL: TestX/key_[REDACTED] (0.00s)"},
		{"apiKeysk_live_ABCDEF1234567890abcdef", "apiKeysk_live_ABCDEF1234567890abcdef"}, // glued to a word
		{"x=sk_live_ABCDEF12.y", "x=[REDACTED].y"},
		{"/v1/sk_live_ABCDEF12/x", "/v1/[REDACTED]/x"},
		{"é_sk_live_ABCDEF12", "é_[REDACTED]"},
		// After a character JSON escapes (\n, \t, \u003c): the rules read
		// the escape, whose last byte is a letter or digit.
		{"line\nsk_live_ABCDEF12\tsk_live_ABCDEF12", "line\n[REDACTED]\t[REDACTED]"},
		{"<sk_live_ABCDEF12>", "<[REDACTED]>"},
		// Not keys: a word that holds "sk_", or a tail shorter than 8.
		{"task_skill disk_size mask_sk_ task_sk_1 ask_me_anything", "task_skill disk_size mask_sk_ task_sk_1 ask_me_anything"},
	} {
		if got := svc.RedactText(tt.in); got != tt.want {
			t.Errorf("RedactText(%q) = %q, want %q", tt.in, got, tt.want)
		}
		doc := []byte(`{"caseTitle":` + string(mustJSON(t, tt.in)) + `}`)
		want := `{"caseTitle":` + string(mustJSON(t, tt.want)) + `}`
		if got := string(svc.RedactJSON(doc)); got != want {
			t.Errorf("RedactJSON(%s) = %s, want %s", doc, got, want)
		}
	}
}
