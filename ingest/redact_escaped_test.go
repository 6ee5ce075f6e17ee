package ingest

import (
	"encoding/json"
	"strings"
	"testing"
)

// A secret token spelled with a JSON \u escape of one of its characters
// (a test printing a JSON body whose encoder escaped it) is compared
// decoded and redacted whole, at any depth of quoting: the client's key
// (whatever its shape after sk_), any sk_ token, a run secret. Text
// around it, other escapes and a token that decodes to no secret are
// kept, and the document stays JSON.
func TestSecretWithUnicodeEscapeRedacted(t *testing.T) {
	t.Parallel()
	const key = "sk_demo_owner_0000000000000000"
	rd := redactor{key: func(s string) string { return strings.ReplaceAll(s, key, "sk_***") }}.withValues("RunSecretValue99")
	for _, tc := range []struct{ text, secret string }{
		{`body {"note":"sk\u005fdemo_owner_0000000000000000"} sent`, "demo_owner_0000"},
		{`body {"note":"\u0073k_demo_owner_0000000000000000"} sent`, "demo_owner_0000"},
		{`body {"note":"sk_demo\u005Fowner_0000000000000000"} sent`, "owner_0000"},
		{`quoted "{\"note\":\"sk\\u005flive_ABCDEFGH12345\"}"`, "ABCDEFGH12345"},
		{`token RunSecret\u0056alue99 here`, "alue99"},
	} {
		got := string(rd.text(tc.text))
		if strings.Contains(got, tc.secret) || !strings.Contains(got, Redacted) {
			t.Errorf("text(%q) = %q", tc.text, got)
		}
		if !strings.HasPrefix(got, strings.Fields(tc.text)[0]) {
			t.Errorf("text(%q) = %q lost the text before the secret", tc.text, got)
		}
	}
	// In a Trace, kept as its encoder wrote it: the escape is the
	// document's own.
	for _, tr := range []string{`{"note":"sk\u005fdemo_owner_0000000000000000","n":1}`, `["x \u0073k_live_ABCDEFGH12345 y"]`} {
		b, _ := json.Marshal(Result{CaseTitle: "t", Trace: json.RawMessage(tr)})
		if out := string(rd.apply(b)); strings.Contains(out, "0000000000") || strings.Contains(out, "ABCDEFGH") || !json.Valid([]byte(out)) {
			t.Errorf("trace %s redacted to %s", tr, out)
		}
	}
	for _, keep := range []string{`color \u001b[31mred\u001b[0m`, `escaped \u0041BC is not a secret`, `plain words_only`} {
		if got := string(rd.text(keep)); got != keep {
			t.Errorf("text(%q) = %q, want it unchanged", keep, got)
		}
	}
}

// A long run of backslashes in a document that also holds one \u00XX
// escape of a word character (which makes the escaped-token rule read
// the document) is read once: each of its backslashes once scanned the
// rest of the run, and 64 Ki of them took seconds. The work is counted
// (decodedText.read), not timed, so a slow machine cannot fail this.
// Only decode's reads are counted: the rest of redactor.text's path (the
// other rules applyMode runs over the document) has no counter, and
// neither time nor allocations would measure its work deterministically,
// so a quadratic pass there is not caught here; the call below only checks
// the whole path still redacts the token after the run.
func TestRedactEscapedBackslashRunLinear(t *testing.T) {
	t.Parallel()
	// The string's text the rule reads: each '\' was "\\" in the JSON
	// string it decoded from.
	text := []byte(strings.Repeat(`\`, 64<<10) + ` \u0041 sk\u005fabcdefgh123`)
	at := make([]int, len(text)+1)
	for i := range at {
		at[i] = i
	}
	var d decodedText
	d.decode(text, at)
	// Linear: each byte is read by a step or two (quadratic, 2 Gi reads).
	if d.read > 4*len(text) {
		t.Errorf("decoding %d bytes, 64 Ki of them one run of backslashes, read %d: quadratic", len(text), d.read)
	}
	out := string(redactor{}.text(string(text)))
	if strings.Contains(out, "abcdefgh123") {
		t.Errorf("the escaped sk_ token after the run survived")
	}
}
