package wire

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// mayEncode reports whether s may hold a secret in an encoded spelling:
// every percent and JSON escape starts with '%' or '\', and QueryEscape
// writes a space as '+' (which counts only when a secret has a space).
// Text with none of them (the common case) goes by the literal pass alone.
func mayEncode(s string, spaced bool) bool {
	return strings.ContainsAny(s, `%\`) || spaced && strings.IndexByte(s, '+') >= 0
}

// replaceEncoded replaces with repl each spelling of e.v in s where every
// character of it stands as it is or encoded, each on its own (so
// mixtures match too): a byte as %XX (either hex case), a space as '+', a
// rune as a JSON \uXXXX (either hex case; a UTF-16 surrogate pair past
// U+FFFF) or as its short escape (\/, \", \\, \b, \f, \n, \r, \t), and a
// byte that is no UTF-8 as \ufffd, as encoding/json writes it. With
// whole, a match must stand as a whole token (tokenAt), as replaceTokens
// has it for short values. With e.first (firstLayers), a character may
// also stand under two layers (layeredEnds). The leftmost match wins, and
// of its possible ends the longest, so that an ambiguous "%25" (a '%'
// encoded, or '%' followed by "25") leaves nothing of the secret behind.
// w is the memory the walk reuses (see encodedWalk for its cost). It is
// one value's walk alone, which the walk's tests drive: a Scrubber
// collects every value's matches from the same walk and replaces their
// union instead.
func replaceEncoded(w *encodedWalk, s string, e *encodedValue, repl string, whole bool) string {
	if e.v == "" {
		return s
	}
	w.start(e)
	var edges *tokenEdges
	if whole {
		edges = &tokenEdges{}
	}
	var b strings.Builder
	last := 0
	for p, end := w.next(s, 0, edges); p >= 0; p, end = w.next(s, end, edges) {
		if b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:p])
		b.WriteString(repl)
		last = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// spellEnds adds to ends, as offsets from base, the positions in s where
// one spelling of the character ch (rune r, or -1 for a byte that is no
// UTF-8) that starts at q ends.
func spellEnds(ends *endSet, base int, s string, q int, ch string, r rune) {
	if q >= len(s) {
		return
	}
	// As bytes, each as it is or %XX: only an ASCII byte can go both ways
	// at q ('%' as it is, or "%25"); a multi-byte rune's walk is single.
	if len(ch) == 1 {
		if s[q] == ch[0] {
			ends.add(q + 1 - base)
		}
		if PercentByte(s, q) == int(ch[0]) {
			ends.add(q + 3 - base)
		}
	} else if e := bytesAt(s, q, ch); e >= 0 {
		ends.add(e - base)
	}
	if r == ' ' && s[q] == '+' {
		ends.add(q + 1 - base)
	}
	if s[q] != '\\' || q+1 >= len(s) {
		return
	}
	if c := shortEscape(r); c != 0 && s[q+1] == c {
		ends.add(q + 2 - base)
	}
	switch {
	case r < 0:
		if hex4At(s, q) == utf8.RuneError {
			ends.add(q + 6 - base)
		}
	case r > 0xFFFF:
		if r1, r2 := utf16.EncodeRune(r); hex4At(s, q) == r1 && hex4At(s, q+6) == r2 {
			ends.add(q + 12 - base)
		}
	default:
		if hex4At(s, q) == r {
			ends.add(q + 6 - base)
		}
	}
}

// bytesAt is where ch ends when it starts at q in s with each of its bytes
// as it is or as %XX, or -1.
func bytesAt(s string, q int, ch string) int {
	for i := range len(ch) {
		switch {
		case q < len(s) && s[q] == ch[i]:
			q++
		case PercentByte(s, q) == int(ch[i]):
			q += 3
		default:
			return -1
		}
	}
	return q
}

// PercentByte is the byte that a %XX escape at s[q] stands for (hex
// digits of either case), or -1 when s[q:] does not start with one.
func PercentByte(s string, q int) int {
	if q+3 > len(s) || s[q] != '%' {
		return -1
	}
	h, l := unhex(s[q+1]), unhex(s[q+2])
	if h < 0 || l < 0 {
		return -1
	}
	return h<<4 | l
}

// hex4At is the code unit that a JSON \uXXXX at s[q] stands for, or -1.
func hex4At(s string, q int) rune {
	if q+6 > len(s) || s[q] != '\\' || s[q+1] != 'u' {
		return -1
	}
	var r rune
	for i := q + 2; i < q+6; i++ {
		d := unhex(s[i])
		if d < 0 {
			return -1
		}
		r = r<<4 | rune(d)
	}
	return r
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// shortEscape is the letter after '\' that JSON may write r as, or 0.
func shortEscape(r rune) byte {
	switch r {
	case '"', '\\', '/':
		return byte(r)
	case '\b':
		return 'b'
	case '\f':
		return 'f'
	case '\n':
		return 'n'
	case '\r':
		return 'r'
	case '\t':
		return 't'
	}
	return 0
}
