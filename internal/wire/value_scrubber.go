package wire

import (
	"cmp"
	"slices"
	"strings"
)

// ValueScrubber returns what replaces with marker, in text, each of values
// of minScrubbed bytes or more in every spelling SecretScrubber takes a
// long value out in: as written, percent- or JSON-escaped by any encoder
// (hex digits in either case, any mixture character by character) and
// under two layers of encoding; nil when no value is that long. A shorter
// value is left alone: it could be part of any word. Unlike
// SecretScrubber it applies no rule but the values (no credential field
// names, no URL's ?k=), for secrets known by value alone, such as the
// credential headers a client sends.
//
// Each value's matches are found in the text as given, leftmost and
// longest first, and their union is replaced, overlapping matches as one
// marker. Replacing one value before looking for the next would let a
// value found as written inside another's escaped spelling hide the rest
// of that spelling, whichever of the two is longer.
func ValueScrubber(marker string, values ...string) func(string) string {
	long := make([]string, 0, len(values))
	for _, v := range values {
		if len(v) >= minScrubbed {
			long = append(long, v)
		}
	}
	if len(long) == 0 {
		return nil
	}
	slices.Sort(long)
	long = slices.Compact(long)
	vs := valueSet{marker: marker, vals: make([]encodedValue, len(long))}
	for i, v := range long {
		vs.vals[i] = newEncodedValue(v, true)
		vs.spaced = vs.spaced || strings.IndexByte(v, ' ') >= 0
	}
	return vs.replace
}

// valueSet is ValueScrubber's values, ready for the encoded walk.
type valueSet struct {
	marker string
	vals   []encodedValue
	spaced bool // a value has a space, which QueryEscape writes as '+'
}

// span is one match, s[from:to].
type span struct{ from, to int }

// replace is s with the union of every value's matches replaced.
func (vs *valueSet) replace(s string) string {
	var buf [8]span // room for the common case without allocating
	spans := buf[:0]
	if mayEncode(s, vs.spaced) {
		w := getWalk()
		for i := range vs.vals {
			w.start(&vs.vals[i])
			for p, end := w.next(s, 0, false); p >= 0; p, end = w.next(s, end, false) {
				spans = append(spans, span{p, end})
			}
		}
		putWalk(w)
	} else {
		// Without '%', '\' or a space's '+', only a value as written can
		// be in s: strings.Index finds it faster than the walk.
		for i := range vs.vals {
			v := vs.vals[i].v
			for from := 0; ; {
				j := strings.Index(s[from:], v)
				if j < 0 {
					break
				}
				spans = append(spans, span{from + j, from + j + len(v)})
				from += j + len(v)
			}
		}
	}
	if len(spans) == 0 {
		return s
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.from, b.from) })
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for i := 0; i < len(spans); {
		from, to := spans[i].from, spans[i].to
		for i++; i < len(spans) && spans[i].from < to; i++ {
			to = max(to, spans[i].to)
		}
		b.WriteString(s[last:from])
		b.WriteString(vs.marker)
		last = to
	}
	b.WriteString(s[last:])
	return b.String()
}
