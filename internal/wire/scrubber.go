package wire

import (
	"strings"
	"sync"
)

// ScrubRule is how a Scrubber finds a group's values in text.
type ScrubRule int

const (
	// AsWritten finds a value only as written, wherever it occurs and
	// whatever its length: a value the caller spells out itself (an API
	// key and the escapes a URL gives it, a URL's parts).
	AsWritten ScrubRule = iota
	// AnySpelling finds a value of minScrubbed bytes or more wherever it
	// occurs, in every spelling SecretScrubber knows (ValueScrubber's
	// rule); a shorter value is dropped.
	AnySpelling
	// RequestSecret is SecretScrubber's rule: AnySpelling for a value of
	// minScrubbed bytes or more, a shorter one only where it stands as a
	// whole token (tokenAt), one under minTokenScrubbed bytes dropped.
	RequestSecret
)

// ScrubValues is one group of a Scrubber's values: the rule they are
// found by and the marker that replaces them.
type ScrubValues struct {
	Marker string
	Rule   ScrubRule
	Values []string
	// Raw marks the values ScrubRaw replaces, in text that must stay what
	// it is (a JSON body, which another value's match could break by
	// spanning a quote).
	Raw bool
}

// Scrubber takes known secret values out of text. Every value's matches
// are found in the text as given, and their union is replaced at once,
// overlapping matches as one marker (the marker of the leftmost match,
// the longest of those that start there). Replacing one value before
// looking for the next would let a value found inside another's escaped
// spelling break that spelling and leave the rest of the other value in
// clear, whichever of the two is longer.
//
// A Scrubber is safe for concurrent use; a nil one leaves text as it is.
type Scrubber struct {
	vals   []setValue
	spaced bool // a value has a space, which QueryEscape writes as '+'

	// The values' encoded forms for the walk (index-aligned with vals; an
	// AsWritten value's is zero), made when a text first needs them, not
	// for every scrubber: a request's scrubber is made per call. A
	// scrubber made by With shares its parent's.
	parent *Scrubber
	once   sync.Once
	enc    []encodedValue
}

// setValue is one value of a Scrubber.
type setValue struct {
	v       string
	marker  string
	literal bool // AsWritten
	raw     bool
}

// NewScrubber is a Scrubber of groups, nil when no value is kept.
func NewScrubber(groups ...ScrubValues) *Scrubber {
	return (*Scrubber)(nil).With(groups...)
}

// With is a Scrubber of sc's values and those of groups, nil when there
// are none; sc itself is left as it is. The values sc holds keep the
// encoded forms sc made for them.
func (sc *Scrubber) With(groups ...ScrubValues) *Scrubber {
	n := 0
	for _, g := range groups {
		n += len(g.Values)
	}
	if n == 0 {
		return sc
	}
	out := &Scrubber{parent: sc}
	if sc != nil {
		out.vals = make([]setValue, len(sc.vals), len(sc.vals)+n)
		copy(out.vals, sc.vals)
		out.spaced = sc.spaced
	} else {
		out.vals = make([]setValue, 0, n)
	}
	for _, g := range groups {
		for _, v := range g.Values {
			if !keeps(g.Rule, v) {
				continue
			}
			out.vals = append(out.vals, setValue{v: v, marker: g.Marker, literal: g.Rule == AsWritten, raw: g.Raw})
			out.spaced = out.spaced || g.Rule != AsWritten && strings.IndexByte(v, ' ') >= 0
		}
	}
	if len(out.vals) == 0 {
		return nil
	}
	if sc != nil && len(out.vals) == len(sc.vals) {
		return sc
	}
	return out
}

// keeps reports whether rule takes v out at all.
func keeps(rule ScrubRule, v string) bool {
	switch rule {
	case AnySpelling:
		return len(v) >= minScrubbed
	case RequestSecret:
		return len(v) >= minTokenScrubbed
	}
	return v != ""
}

// encoded is sc's values' encoded forms, made on first use.
func (sc *Scrubber) encoded() []encodedValue {
	sc.once.Do(func() {
		sc.enc = make([]encodedValue, len(sc.vals))
		from := 0
		if sc.parent != nil {
			from = copy(sc.enc, sc.parent.encoded())
		}
		for i := from; i < len(sc.vals); i++ {
			if v := sc.vals[i]; !v.literal {
				sc.enc[i] = newEncodedValue(v.v, len(v.v) >= minScrubbed)
			}
		}
	})
	return sc.enc
}

// match is one value's match in a text, s[from:to], and the value's index.
type match struct{ from, to, val int }

// Scrub is s with the union of every value's matches replaced.
func (sc *Scrubber) Scrub(s string) string { return sc.replace(s, false) }

// ScrubRaw is s with the matches of the Raw groups' values replaced, each
// with every match of any value that overlaps it (so that none of the
// other value is left behind); other values' matches stay, for a later
// Scrub of the decoded text.
func (sc *Scrubber) ScrubRaw(s string) string { return sc.replace(s, true) }

// replace is Scrub, or ScrubRaw with raw.
func (sc *Scrubber) replace(s string, raw bool) string {
	if sc == nil {
		return s
	}
	var buf [8]match // room for the common case without allocating
	ms := sc.matches(s, buf[:0])
	if len(ms) == 0 {
		return s
	}
	sortMatches(ms)
	var b strings.Builder
	last := 0
	for i := 0; i < len(ms); {
		from, to, lead := ms[i].from, ms[i].to, ms[i].val
		keep := !raw || sc.vals[lead].raw
		for i++; i < len(ms) && ms[i].from < to; i++ {
			to = max(to, ms[i].to)
			keep = keep || sc.vals[ms[i].val].raw
		}
		if !keep {
			continue
		}
		if b.Len() == 0 && last == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:from])
		b.WriteString(sc.vals[lead].marker)
		last = to
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// sortMatches orders ms by start, the longest first among those that
// start together: an insertion sort, as a text rarely holds more than a
// few matches, and slices.SortFunc's closure would cost an allocation.
func sortMatches(ms []match) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && (ms[j].from < ms[j-1].from || ms[j].from == ms[j-1].from && ms[j].to > ms[j-1].to); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

// matches appends to ms every value's matches in s.
func (sc *Scrubber) matches(s string, ms []match) []match {
	// Every encoded spelling has a '%' or '\' (or a '+' for a space):
	// in text without them, the common case, only a value as written can
	// be found, and strings.Index finds it faster than the walk.
	esc := mayEncode(s, sc.spaced)
	var w *encodedWalk
	for i := range sc.vals {
		v := &sc.vals[i]
		whole := !v.literal && len(v.v) < minScrubbed
		if v.literal || !esc {
			ms = appendWritten(ms, s, v.v, i, whole)
			continue
		}
		if w == nil {
			w = getWalk() // its memory serves every value, and later calls
		}
		w.start(&sc.encoded()[i])
		for p, end := w.next(s, 0, whole); p >= 0; p, end = w.next(s, end, whole) {
			ms = append(ms, match{p, end, i})
		}
	}
	if w != nil {
		putWalk(w)
	}
	return ms
}

// appendWritten appends to ms the occurrences of v (the value at index
// val) as written in s, left to right, each past the last; with whole,
// only those that stand as a whole token (wholeToken). The work is linear
// in len(s) times len(v) at worst.
func appendWritten(ms []match, s, v string, val int, whole bool) []match {
	for from := 0; from <= len(s)-len(v); {
		i := strings.Index(s[from:], v)
		if i < 0 {
			break
		}
		at := from + i
		if whole && !wholeToken(s, at, at+len(v)) {
			from = at + 1
			continue
		}
		ms = append(ms, match{at, at + len(v), val})
		from = at + len(v)
	}
	return ms
}
