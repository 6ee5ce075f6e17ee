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

// replaceEncoded replaces with repl each spelling of v in s where every
// character of v stands as it is or encoded, each on its own (so mixtures
// match too): a byte as %XX (either hex case), a space as '+', a rune as
// a JSON \uXXXX (either hex case; a UTF-16 surrogate pair past U+FFFF) or
// as its short escape (\/, \", \\, \b, \f, \n, \r, \t), and a byte that is
// no UTF-8 as \ufffd, as encoding/json writes it. With whole, a match must
// stand as a whole token (tokenAt), as replaceTokens has it for short
// values. With first (firstLayers(v)), a character may also stand under
// two layers (appendLayeredEnds). Of a match's possible ends the longest
// wins, so that an ambiguous "%25" (v's '%' encoded, or '%' followed by
// "25") leaves nothing of the secret behind.
func replaceEncoded(s, v, repl string, whole bool, first [][]string) string {
	if v == "" {
		return s
	}
	var b strings.Builder
	var bufA, bufB [8]int // position sets, usually of one or two
	cur, next := bufA[:0], bufB[:0]
	last := 0
	for p := 0; p < len(s); p++ {
		if c := s[p]; c != v[0] && c != '%' && c != '\\' && (c != '+' || v[0] != ' ') {
			continue
		}
		cur = append(cur[:0], p)
		for i, k := 0, 0; i < len(v) && len(cur) > 0; k++ {
			r, size := utf8.DecodeRuneInString(v[i:])
			if r == utf8.RuneError && size == 1 {
				r = -1 // a byte that is no UTF-8
			}
			next = next[:0]
			for _, q := range cur {
				if first != nil {
					next = appendLayeredEnds(next, s, q, v[i:i+size], r, first[k])
				} else {
					next = appendEnds(next, s, q, v[i:i+size], r)
				}
			}
			cur, next = next, cur
			i += size
		}
		end := -1
		for _, e := range cur {
			if e > end && (!whole || tokenAt(s, p, e, v[0], v[len(v)-1])) {
				end = e
			}
		}
		if end < 0 {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:p])
		b.WriteString(repl)
		last = end
		p = end - 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// appendEnds appends to ends, once each, the positions in s where one
// spelling of the character ch (rune r, or -1 for a byte that is no
// UTF-8) that starts at q ends.
func appendEnds(ends []int, s string, q int, ch string, r rune) []int {
	if q >= len(s) {
		return ends
	}
	add := func(e int) {
		for _, x := range ends {
			if x == e {
				return
			}
		}
		ends = append(ends, e)
	}
	// As bytes, each as it is or %XX: only an ASCII byte can go both ways
	// at q ('%' as it is, or "%25"); a multi-byte rune's walk is single.
	if len(ch) == 1 {
		if s[q] == ch[0] {
			add(q + 1)
		}
		if PercentByte(s, q) == int(ch[0]) {
			add(q + 3)
		}
	} else if e := bytesAt(s, q, ch); e >= 0 {
		add(e)
	}
	if r == ' ' && s[q] == '+' {
		add(q + 1)
	}
	if s[q] != '\\' || q+1 >= len(s) {
		return ends
	}
	if c := shortEscape(r); c != 0 && s[q+1] == c {
		add(q + 2)
	}
	switch {
	case r < 0:
		if hex4At(s, q) == utf8.RuneError {
			add(q + 6)
		}
	case r > 0xFFFF:
		if r1, r2 := utf16.EncodeRune(r); hex4At(s, q) == r1 && hex4At(s, q+6) == r2 {
			add(q + 12)
		}
	default:
		if hex4At(s, q) == r {
			add(q + 6)
		}
	}
	return ends
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
