package wire

import "sort"

// wholeToken reports whether s[i:j] is not part of a longer run of ASCII
// letters and digits: at each end, either the match's own byte or its
// neighbour outside is no ASCII letter or digit. Unlike a regexp's \b,
// '_' and every non-ASCII byte are edges: a value next to one is taken
// out (more than needed, never less).
func wholeToken(s string, i, j int) bool {
	return tokenAt(s, i, j, s[i], s[j-1])
}

// tokenAt is wholeToken for a match s[i:j] of a value that begins with
// first and ends with last, however the match spells them (an encoded
// match begins with '%' or '\', which says nothing of the value's own
// edge). The neighbour before is read decoded when the text there ends
// in an escape: in "pin%3D7304" or "\n7304", the 'D' or 'n' stands for
// '=' or a newline, an edge. The neighbour after needs no decoding: an
// escape starts with '%' or '\', an edge already (so "7304%41" goes too,
// the safe side).
func tokenAt(s string, i, j int, first, last byte) bool {
	return tokenStartsAt(s, i, first) && tokenEndsAt(s, j, last)
}

// tokenStartsAt is tokenAt's test at the match's start i alone: the two
// ends are judged apart, so the encoded pass can drop a start before it
// walks from it and an end whatever start reached it.
func tokenStartsAt(s string, i int, first byte) bool {
	return !isWordByte(first) || i == 0 || !isWordByte(s[i-1]) || escapedEdgeBefore(s, i)
}

// tokenEndsAt is tokenAt's test at the match's end j alone.
func tokenEndsAt(s string, j int, last byte) bool {
	return j == len(s) || !isWordByte(s[j]) || !isWordByte(last)
}

// escapedEdgeBefore reports whether s[:i] ends with an escape (%XX,
// \uXXXX, or a short JSON escape spelt with a letter) of a character that
// is no ASCII letter or digit.
func escapedEdgeBefore(s string, i int) bool {
	if i >= 3 {
		if c := PercentByte(s, i-3); c >= 0 {
			return !isWordByte(byte(c))
		}
	}
	if i >= 6 {
		if r := hex4At(s, i-6); r >= 0 {
			return r >= 0x80 || !isWordByte(byte(r))
		}
	}
	if i >= 2 && s[i-2] == '\\' {
		switch s[i-1] {
		case 'b', 'f', 'n', 'r', 't':
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// tokenEdges judges a short value's match as a whole token (tokenAt),
// counting a neighbour that lies inside another value's match as an edge:
// that neighbour is replaced too, so the value ends up next to a marker
// ("abcdefghijklPIN9" gives "[REDACTED][REDACTED]", as replacing the long
// value first did). others is the other values' matches, ordered by start
// (sortedMatches), each with its reach. Short values are judged one at a
// time, so two glued only to each other ("PIN9ABCD") are both left: each
// edge by the other is a word byte no match covers yet, and judging them
// again would change nothing. Only a run of short secrets that together
// make a whole token could tell them, which no caller has needed.
type tokenEdges struct{ others []match }

// startsAt is tokenStartsAt, or the byte before i inside another match.
func (t *tokenEdges) startsAt(s string, i int, first byte) bool {
	return tokenStartsAt(s, i, first) || t.covers(i-1)
}

// endsAt is tokenEndsAt, or the byte at j inside another match.
func (t *tokenEdges) endsAt(s string, j int, last byte) bool {
	return tokenEndsAt(s, j, last) || t.covers(j)
}

// covers reports whether position i lies inside one of the others: the
// last of them to start at or before i reaches past it (reach is the
// furthest end of a match up to there).
func (t *tokenEdges) covers(i int) bool {
	k := sort.Search(len(t.others), func(k int) bool { return t.others[k].from > i })
	return k > 0 && t.others[k-1].reach > i
}
