package ingest

import (
	"bytes"
	"regexp"
	"testing"
)

// reSKReference is the sk_ rule as a regexp: skTokenAt's boundary (no
// ASCII letter or digit before "sk_", '_' included, or a JSON escape) and
// tail.
var reSKReference = regexp.MustCompile(`(^|[^A-Za-z0-9]|\\[ntrbf]|\\u[0-9A-Fa-f]{4})sk_[A-Za-z0-9_\-]{8,}`)

// redactSKTokens replaces exactly what the reference regexp finds.
func FuzzRedactSKTokens(f *testing.F) {
	for _, s := range []string{"TestX/key_sk_live_ABCDEF1234567890abcdef", "task_skill disk_size mask_sk_", "sk_sk_abcdefgh",
		"xsk_ab_sk_abcdefgh", "sk_abcdefg", "_sk_abcdefgh-sk_abcdefgh", "\xffsk_abcdefgh", "é_sk_12345678\"", "sk_a_sk_abcdefgh",
		`x\nsk_abcdefgh`, `\u003csk_abcdefgh`, `\u0041sk_abcdefgh`, `\\nsk_abcdefgh`, `\xsk_abcdefgh`, `u0041sk_abcdefgh`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := reSKReference.ReplaceAll(b, []byte("${1}"+Redacted))
		if got := redactSKTokens(bytes.Clone(b)); !bytes.Equal(got, want) {
			t.Fatalf("redactSKTokens(%q) = %q, want %q", b, got, want)
		}
		if k, _ := skTokenAt(b, 0); (k >= 0) != reSKReference.Match(b) {
			t.Fatalf("skTokenAt(%q) = %d, the regexp disagrees", b, k)
		}
	})
}
