package wire

import (
	"encoding/json"
	"strings"
)

// ScrubRaw is s, a raw JSON body, with the matches of the Raw groups'
// values replaced, each with the part of any other value's match that
// overlaps it inside the same JSON string (so that none of the other
// value is left behind there); other values' matches stay, for a later
// Scrub of the decoded text. Valid JSON stays valid JSON, and no other
// value rewrites a string the Raw values' matches do not touch: a
// replacement never takes in a string's quote or part of an escape. In
// valid JSON, a Raw value's own match that would (one ending inside an
// escape, as a value ending in '\' may, or spanning a quote) is left for
// the decoded text, whose Scrub finds the value whole: replaced, it could
// leave JSON that is valid but says something else ("\u0000" losing its
// '\'). Should the replacement still not be JSON, only the Raw values'
// matches are replaced and, should that not be JSON either, s is given
// back as it is (its decoded text is cleaned of every value anyway). In
// text that is no JSON every Raw match is replaced.
func (sc *Scrubber) ScrubRaw(s string) string {
	if sc == nil {
		return s
	}
	out, skipped := sc.replaceRaw(s, true, true)
	if skipped && !json.Valid([]byte(s)) {
		out, _ = sc.replaceRaw(s, true, false)
	}
	if out == s || json.Valid([]byte(out)) || !json.Valid([]byte(s)) {
		return out
	}
	if out, _ = sc.replaceRaw(s, false, true); json.Valid([]byte(out)) {
		return out
	}
	return s
}

// span is a stretch of text to replace, s[from:to], under the marker of
// the value at index val; from -1 for none.
type span struct{ from, to, val int }

// replaceRaw is ScrubRaw's replacement: with extend, a Raw match takes in
// what overlaps it of other values' matches where jsonSafeSpan allows;
// with safe, a Raw match jsonSafeSpan refuses is passed over, and skipped
// reports whether one was.
func (sc *Scrubber) replaceRaw(s string, extend, safe bool) (_ string, skipped bool) {
	var buf [8]match // room for the common case without allocating
	ms, _ := sc.sortedMatches(s, buf[:0], false)
	var b strings.Builder
	last := 0
	emit := func(c span) {
		if last == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:c.from])
		b.WriteString(sc.vals[c.val].marker)
		last = c.to
	}
	cur := span{from: -1}  // the span being built from Raw matches
	pend := span{from: -1} // other values' matches since, as one stretch
	pendWhole := false     // pend ends with a whole-token match's end
	for _, m := range ms {
		if v := &sc.vals[m.val]; !v.raw {
			// A short secret's match that touches a Raw one was found
			// because that neighbour is a match (tokenEdges): once the
			// Raw match is replaced, the secret would stand glued to its
			// marker and no longer be found, so it goes with it.
			touches := v.whole && m.from == cur.to
			switch {
			case cur.from >= 0 && m.from < cur.to:
				if extend && m.to > cur.to && jsonSafeSpan(s, cur.to, m.to) {
					cur.to = m.to
				}
			case cur.from >= 0 && extend && touches && jsonSafeSpan(s, cur.to, m.to):
				cur.to = m.to
			case pend.from >= 0 && m.from < pend.to:
				if m.to > pend.to {
					pend.to, pendWhole = m.to, v.whole
				}
			default:
				pend, pendWhole = span{m.from, m.to, m.val}, v.whole
			}
			continue
		}
		if safe && !jsonSafeSpan(s, m.from, m.to) {
			skipped = true
			continue
		}
		if cur.from >= 0 && m.from < cur.to {
			cur.to = max(cur.to, m.to)
			continue
		}
		if cur.from >= 0 {
			emit(cur)
		}
		cur = span{m.from, m.to, m.val}
		// pend joins the Raw match when it overlaps it (one starting with
		// it too: it sorts first, being longer) or is a short secret
		// touching it; it lends its start and marker only when it starts
		// first.
		if extend && pend.from >= 0 && pend.from <= m.from && (pend.to > m.from || pend.to == m.from && pendWhole) &&
			jsonSafeSpan(s, pend.from, m.from) {
			if pend.from < m.from {
				cur.from, cur.val = pend.from, pend.val
			}
			if pend.to > cur.to && jsonSafeSpan(s, cur.to, pend.to) {
				cur.to = pend.to
			}
		}
		pend = span{from: -1}
	}
	if cur.from < 0 {
		return s, skipped
	}
	emit(cur)
	b.WriteString(s[last:])
	return b.String(), skipped
}

// jsonSafeSpan reports whether s[a:b], next to a stretch of a JSON string,
// may be replaced with it: it starts and ends at no escape's middle and
// holds no quote but an escaped one, so it lies in the same string.
func jsonSafeSpan(s string, a, b int) bool {
	if midEscape(s, a) {
		return false
	}
	for i := a; i < b; i++ {
		switch s[i] {
		case '"':
			return false
		case '\\':
			n := 2
			if i+1 < len(s) && s[i+1] == 'u' {
				n = 6
			}
			if i+n > b {
				return false
			}
			i += n - 1
		}
	}
	return true
}

// midEscape reports whether position i of s, inside a JSON string, falls
// inside an escape that starts before it. The nearest '\' before i within
// an escape's length decides: it starts an escape when the run of '\' it
// ends is odd (an even one ends a "\\" pair).
func midEscape(s string, i int) bool {
	for k := 1; k <= 5 && i-k >= 0; k++ {
		if s[i-k] != '\\' {
			continue
		}
		run := 1
		for j := i - k - 1; j >= 0 && s[j] == '\\'; j-- {
			run++
		}
		if run%2 == 0 {
			return false
		}
		n := 2
		if i-k+1 < len(s) && s[i-k+1] == 'u' {
			n = 6
		}
		return i-k+n > i
	}
	return false
}
