package transport

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/projectops/projectops-go/option"
)

// spellAny spells v as an encoder, or a mixture of encoders, may quote
// it, each choice drawn from rng: every character as it is or escaped on
// its own (one layer), or escaped and each byte of that escape spelt
// again (two layers: a URL holding the value, itself escaped).
func spellAny(v string, rng *rand.Rand) string {
	var b strings.Builder
	for i := 0; i < len(v); {
		r, size := utf8.DecodeRuneInString(v[i:])
		if r == utf8.RuneError && size == 1 {
			r = -1 // a byte that is no UTF-8
		}
		ch := v[i : i+size]
		i += size
		if rng.IntN(3) > 0 {
			b.WriteString(spellChar(ch, r, rng, false))
			continue
		}
		first := spellChar(ch, r, rng, true)
		for j := range len(first) { // an escape: ASCII, each byte a character
			b.WriteString(spellChar(first[j:j+1], rune(first[j]), rng, false))
		}
	}
	return b.String()
}

// spellChar is one spelling of the character ch (rune r, -1 for a byte
// that is no UTF-8): as it is (unless escaped), each byte as %XX, a space
// as '+', a short JSON escape, or a JSON \uXXXX (a surrogate pair past
// U+FFFF, \ufffd for a byte that is no UTF-8). Hex digits take either
// case, each on its own for a last layer; an escape a second layer is
// spelt over has one case throughout, as one encoder writes it.
func spellChar(ch string, r rune, rng *rand.Rand, escaped bool) string {
	var ways []string
	if !escaped {
		ways = append(ways, ch)
	}
	var pct strings.Builder
	for _, c := range []byte(ch) {
		fmt.Fprintf(&pct, "%%%02X", c)
	}
	ways = append(ways, pct.String())
	if r == ' ' {
		ways = append(ways, "+")
	}
	if c := map[rune]string{'"': `\"`, '\\': `\\`, '/': `\/`}[r]; c != "" {
		ways = append(ways, c)
	}
	switch {
	case r < 0:
		ways = append(ways, `\uFFFD`)
	case r > 0xFFFF:
		r1, r2 := utf16.EncodeRune(r)
		ways = append(ways, fmt.Sprintf(`\u%04X\u%04X`, r1, r2))
	default:
		ways = append(ways, fmt.Sprintf(`\u%04X`, r))
	}
	return hexCase(ways[rng.IntN(len(ways))], rng, escaped)
}

// hexCase writes the hex letters of the escapes in s in lower case, all
// of them (one) or each as drawn.
func hexCase(s string, rng *rand.Rand, one bool) string {
	if len(s) < 2 || s[0] != '%' && s[0] != '\\' {
		return s
	}
	b := []byte(s)
	lower := rng.IntN(2) == 0
	for i, c := range b {
		if !one {
			lower = rng.IntN(2) == 0
		}
		if lower && 'A' <= c && c <= 'F' {
			b[i] = c | 0x20
		}
	}
	return string(b)
}

// Property (secrets never appear in error text, in any spelling): a
// credential header's value of minHeaderRedacted bytes or more, quoted
// back in any spelling spellAny knows, is replaced whole by the
// redactor, and a network failure's text quoting it shows none of it.
//
//	go test -run '^$' -fuzz FuzzCredentialHeaderSpelling -fuzztime 3m ./internal/transport
func FuzzCredentialHeaderSpelling(f *testing.F) {
	for _, seed := range []struct {
		v string
		n uint64
	}{
		{"ZZSECRET/12@34~56+78=ab", 1},
		{`tok"en\0123456789`, 2},
		{"Bearer abc/def+ghi=", 3},
		{"p&ss<wörd>~@😀x", 4},
		{"%2F%25already-escaped", 5},
		{"\xffnot-utf8\xfe-value", 6},
	} {
		f.Add(seed.v, seed.n)
	}
	errNet := errors.New("network down")
	f.Fuzz(func(t *testing.T, v string, seed uint64) {
		// A value a header can carry as the caller set it: no control
		// character, no space around it (net/http trims it). At most 1 KiB:
		// the walk costs up to the text's length times the value's (a
		// repetitive value, every position spelling a prefix of it), and
		// longer ones slow the fuzzer without new spellings.
		if len(v) < minHeaderRedacted || len(v) > 1<<10 || strings.TrimSpace(v) != v ||
			strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return
		}
		spelt := spellAny(v, rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)))
		// NUL bytes around it: no spelling of v holds one, so the
		// replacement must end exactly there.
		if got, want := New(Config{Header: http.Header{"X-Proxy-Token": {v}}}).hdrScrub.Scrub("\x00"+spelt+"\x00"), "\x00REDACTED\x00"; got != want {
			t.Fatalf("value %q spelt %q: redacted to %q, want %q", v, spelt, got, want)
		}
		rt := roundTripFunc(func(*http.Request) (*http.Response, error) {
			return nil, fmt.Errorf("proxy refused \x00%s\x00: %w", spelt, errNet)
		})
		err := doWith(t, rt, nil, option.WithHeader("X-Api-Key", v))
		if !errors.Is(err, errNet) {
			t.Fatalf("value %q: not the network failure: %v", v, err)
		}
		if !strings.Contains(err.Error(), "proxy refused \x00REDACTED\x00") {
			t.Fatalf("value %q spelt %q: network failure shows %q", v, spelt, err.Error())
		}
	})
}
