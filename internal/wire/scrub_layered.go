package wire

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// firstLayers is, for each character of v in order, the spellings other
// than itself that an encoder may write it as in a first layer of two:
// each byte as %XX and a space as '+' (Go's QueryEscape and PathEscape,
// JavaScript's encodeURIComponent, encodeURI and URLSearchParams), and a
// JSON escape (encoding/json's \u003c, JSON.stringify's \", an encoder's
// \/, encoding/json's \ufffd for a byte that is no UTF-8). Encoders
// differ in which characters they leave as they are ('@' and '~' among
// them): taking each character's spellings on their own, not each
// encoder's whole output, covers every encoder, and any mixture of them.
// Hex digits go in both cases. The second layer over these is
// spellEnds's, character by character (layeredEnds).
func firstLayers(v string) [][]string {
	all := make([][]string, 0, len(v))
	for i := 0; i < len(v); {
		r, size := utf8.DecodeRuneInString(v[i:])
		if size == 1 && r < utf8.RuneSelf {
			all = append(all, asciiFirstLayers()[r])
		} else {
			all = append(all, firstLayersOf(v[i:i+size], r)) // a byte that is no UTF-8 is U+FFFD: encoding/json's \ufffd
		}
		i += size
	}
	return all
}

// asciiFirstLayers is firstLayersOf for each ASCII character, made once:
// most secrets are ASCII, and a scrubber is made per request.
var asciiFirstLayers = sync.OnceValue(func() *[utf8.RuneSelf][]string {
	var t [utf8.RuneSelf][]string
	for c := range t {
		t[c] = firstLayersOf(string(rune(c)), rune(c))
	}
	return &t
})

// firstLayersOf is firstLayers for the one character ch, rune r.
func firstLayersOf(ch string, r rune) []string {
	var pct strings.Builder
	for _, c := range []byte(ch) {
		fmt.Fprintf(&pct, "%%%02X", c)
	}
	sp := appendCases(nil, pct.String())
	if r == ' ' {
		sp = append(sp, "+")
	}
	if c := shortEscape(r); c != 0 {
		sp = append(sp, `\`+string(c))
	}
	if r > 0xFFFF {
		r1, r2 := utf16.EncodeRune(r)
		return appendCases(sp, fmt.Sprintf(`\u%04x\u%04x`, r1, r2))
	}
	return appendCases(sp, fmt.Sprintf(`\u%04x`, r))
}

// appendCases appends the escapes in esc, which has its hex digits in one
// case, with its hex digits in each case.
func appendCases(sp []string, esc string) []string {
	sp = append(sp, esc)
	if up := hexUpper(esc); up != esc {
		sp = append(sp, up)
	}
	if low := hexLower(esc); low != esc {
		sp = append(sp, low)
	}
	return sp
}

// hexUpper writes the hex letters of esc (a run of %XX or \uXXXX escapes)
// in upper case; the 'u' of \u is no hex letter and stays.
func hexUpper(esc string) string {
	b := []byte(esc)
	for i, c := range b {
		if c >= 'a' && c <= 'f' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// hexLower writes the hex letters of esc in lower case.
func hexLower(esc string) string {
	b := []byte(esc)
	for i, c := range b {
		if c >= 'A' && c <= 'F' {
			b[i] = c - 'A' + 'a'
		}
	}
	return string(b)
}

// layeredEnds adds to ends, as offsets from q, the positions in s where
// the character ch (rune r, or -1 for a byte that is no UTF-8) that
// starts at q ends under two layers: as spellEnds has it (ch itself, its
// second layer on its own), or as one of its first-layer spellings
// (firstLayers) whose characters each stand as spellEnds has them.
func layeredEnds(ends *endSet, s string, q int, ch string, r rune, first []string) {
	spellEnds(ends, q, s, q, ch, r)
	// Every first-layer spelling starts with '%', '\\' or '+', which the
	// second layer writes as it is or as an escape starting with '%' or
	// '\\': at any other byte none can start.
	if q >= len(s) || s[q] != '%' && s[q] != '\\' && s[q] != '+' {
		return
	}
	for _, f := range first {
		var cur endSet
		cur.add(0)
		// A first-layer spelling is ASCII: each byte is a character. The
		// set holds each position once, however many ways lead to it.
		for i := 0; i < len(f) && cur != (endSet{}); i++ {
			var next endSet
			for off := range cur.all() {
				spellEnds(&next, q, s, q+off, f[i:i+1], rune(f[i]))
			}
			cur = next
		}
		ends.union(cur)
	}
}
