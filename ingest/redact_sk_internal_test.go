package ingest

import (
	"bytes"
	"regexp"
	"testing"
)

// reSKStrongBefore is skTokenAt's strong boundary as a regexp, matched
// against what precedes "sk_": the start, a byte that is no ASCII letter
// or digit nor '_', or a JSON escape.
var reSKStrongBefore = regexp.MustCompile(`(^|[^A-Za-z0-9_]|\\[ntrbf]|\\u[0-9A-Fa-f]{4})$`)

// reSKEscapedUnderscoreBefore is '_' written as a JSON escape: a weak
// boundary, as '_' is.
var reSKEscapedUnderscoreBefore = regexp.MustCompile(`\\u005[fF]$`)

// reSKTail is an sk_ token's tail: every token character that follows.
var reSKTail = regexp.MustCompile(`^[A-Za-z0-9_\-]*`)

// reSKMark is a character no snake_case word holds.
var reSKMark = regexp.MustCompile(`[A-Z0-9-]`)

// skReference is the sk_ rule written plainly: at each "sk_", left to
// right, after a strong boundary 8 or more token characters follow; after
// '_' (or \u005f) the token, "sk_" included, has 16 or more and an
// uppercase letter, a digit or '-' after "sk_", or has 40 or more.
func skReference(b []byte) []byte {
	var out []byte
	last := 0
	for k := 0; k+3 <= len(b); k++ {
		if !bytes.HasPrefix(b[k:], []byte("sk_")) {
			continue
		}
		tail := reSKTail.Find(b[k+3:])
		var ok bool
		switch {
		case k > 0 && b[k-1] == '_' || reSKEscapedUnderscoreBefore.Match(b[:k]):
			ok = 3+len(tail) >= 40 || 3+len(tail) >= 16 && reSKMark.Match(tail)
		case reSKStrongBefore.Match(b[:k]):
			ok = len(tail) >= 8
		}
		if ok {
			out = append(append(out, b[last:k]...), Redacted...)
			last = k + 3 + len(tail)
			k = last - 1
		}
	}
	return append(out, b[last:]...)
}

// redactSKTokens replaces exactly what the reference finds.
func FuzzRedactSKTokens(f *testing.F) {
	for _, s := range []string{"TestX/key_sk_live_ABCDEF1234567890abcdef", "task_skill disk_size mask_sk_", "sk_sk_abcdefgh",
		"xsk_ab_sk_abcdefgh", "sk_abcdefg", "_sk_abcdefgh-sk_abcdefgh", "\xffsk_abcdefgh", "é_sk_12345678\"", "sk_a_sk_abcdefgh",
		`x\nsk_abcdefgh`, `\u003csk_abcdefgh`, `\u0041sk_abcdefgh`, `\\nsk_abcdefgh`, `\xsk_abcdefgh`, `u0041sk_abcdefgh`,
		"use_sk_prefix_for_keys", "_sk_abcdefghijklm-sk_abcdefgh", "_sk_abcdefghijkl1", "_sk_abcdefghijk1", "_sk_sk_sk_sk_abcdefgh", `\u005fsk_abcdefgh`, `\u005Fsk_abcdefghijkl1`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := skReference(b)
		if got := redactSKTokens(bytes.Clone(b)); !bytes.Equal(got, want) {
			t.Fatalf("redactSKTokens(%q) = %q, want %q", b, got, want)
		}
		if k, _ := skTokenAt(b, 0); (k >= 0) != !bytes.Equal(want, b) {
			t.Fatalf("skTokenAt(%q) = %d, the reference disagrees", b, k)
		}
	})
}
