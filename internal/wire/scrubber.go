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
	// occurs, in every spelling SecretScrubber knows (a credential
	// header's value); a shorter value is dropped.
	AnySpelling
	// RequestSecret is SecretScrubber's rule: AnySpelling for a value of
	// minScrubbed bytes or more, a shorter one only where it stands as a
	// whole token (tokenAt; a neighbour inside another value's match is
	// an edge, see tokenEdges, but another short value is not: "PIN9ABCD"
	// leaves both), one under minTokenScrubbed bytes dropped.
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
	// spanning a quote or splitting an escape).
	Raw bool
	// TextOnly marks values Scrub takes out and ScrubNames leaves: a
	// credential header's, which may be part of any word, and so would
	// only corrupt a name (an error's code, a details key) it were found in.
	TextOnly bool
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
	v        string
	marker   string
	literal  bool // AsWritten
	whole    bool // found only as a whole token: a RequestSecret under minScrubbed bytes
	raw      bool
	textOnly bool
}

// NewScrubber is a Scrubber of groups, nil when no value is kept.
func NewScrubber(groups ...ScrubValues) *Scrubber {
	return (*Scrubber)(nil).With(groups...)
}

// With is a Scrubber of sc's values and those of groups, nil when there
// are none; sc itself is left as it is. The values sc holds keep the
// encoded forms sc made for them. A value found by the same rule as one
// already held is held once (with the first one's marker, Raw if either
// is, TextOnly if both are): a key and its escapes are usually the same
// string, and each copy would be looked for, and its matches ordered,
// again.
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
	changed := false
	for _, g := range groups {
		literal := g.Rule == AsWritten
		for _, v := range g.Values {
			if !keeps(g.Rule, v) {
				continue
			}
			if k := out.index(v, literal); k >= 0 {
				held := &out.vals[k]
				changed = changed || g.Raw && !held.raw || !g.TextOnly && held.textOnly
				held.raw = held.raw || g.Raw
				held.textOnly = held.textOnly && g.TextOnly
				continue
			}
			out.vals = append(out.vals, setValue{v: v, marker: g.Marker, literal: literal,
				whole: !literal && len(v) < minScrubbed, raw: g.Raw, textOnly: g.TextOnly})
			out.spaced = out.spaced || !literal && strings.IndexByte(v, ' ') >= 0
		}
	}
	if len(out.vals) == 0 {
		return nil
	}
	if sc != nil && len(out.vals) == len(sc.vals) && !changed {
		return sc
	}
	return out
}

// index is where sc holds v, found as written alone or not, or -1. A
// linear search: a call holds a handful of values.
func (sc *Scrubber) index(v string, literal bool) int {
	for k := range sc.vals {
		if sc.vals[k].v == v && sc.vals[k].literal == literal {
			return k
		}
	}
	return -1
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

// match is one value's match in a text, s[from:to], and the value's
// index. reach is the furthest end of the matches ordered up to it, for
// tokenEdges.
type match struct{ from, to, val, reach int }

// Scrub is s with the union of every value's matches replaced.
func (sc *Scrubber) Scrub(s string) string { return sc.scrub(s, false) }

// ScrubNames is Scrub without the TextOnly values: the union of the other
// values' matches replaced.
func (sc *Scrubber) ScrubNames(s string) string { return sc.scrub(s, true) }

// scrub is Scrub, or ScrubNames with names.
func (sc *Scrubber) scrub(s string, names bool) string {
	if sc == nil {
		return s
	}
	var buf [8]match // room for the common case without allocating
	ms, _ := sc.sortedMatches(s, buf[:0], names)
	if len(ms) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(ms); {
		from, to, lead := ms[i].from, ms[i].to, ms[i].val
		for i++; i < len(ms) && ms[i].from < to; i++ {
			to = max(to, ms[i].to)
		}
		if last == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:from])
		b.WriteString(sc.vals[lead].marker)
		last = to
	}
	b.WriteString(s[last:])
	return b.String()
}

// sortedMatches appends to ms every value's matches in s, ordered by
// start, the longest first among those that start together, and reports
// the comparisons ordering them took (for the cost test). The values
// found as whole tokens come last, the longest first, each judged with
// the matches found before it (tokenEdges). With names, the TextOnly
// values are left out.
func (sc *Scrubber) sortedMatches(s string, ms []match, names bool) ([]match, int) {
	// Every encoded spelling has a '%' or '\' (or a '+' for a space):
	// in text without them, the common case, only a value as written can
	// be found, and strings.Index finds it faster than the walk.
	esc := mayEncode(s, sc.spaced)
	var w *encodedWalk
	var endBuf [8]int
	runs := endBuf[:0] // where each value's matches, left to right, end
	wholes := false
	for i := range sc.vals {
		if names && sc.vals[i].textOnly {
			continue
		}
		if sc.vals[i].whole {
			wholes = true
			continue
		}
		n := len(ms)
		ms, w = sc.appendMatches(ms, s, i, esc, w, nil)
		if len(ms) > n {
			runs = append(runs, len(ms))
		}
	}
	ms, work := mergeRuns(ms, runs)
	for l := minScrubbed - 1; wholes && l >= minTokenScrubbed; l-- {
		for i := range sc.vals {
			if v := &sc.vals[i]; !v.whole || len(v.v) != l || names && v.textOnly {
				continue
			}
			setReach(ms)
			n := len(ms)
			ms, w = sc.appendMatches(ms, s, i, esc, w, &tokenEdges{others: ms[:n]})
			var k int
			ms, k = mergeRuns(ms, []int{n, len(ms)})
			work += k
		}
	}
	if w != nil {
		putWalk(w)
	}
	return ms, work
}

// appendMatches appends to ms the matches of value i in s, left to right,
// each past the last; with edges, those that stand as a whole token. w is
// the encoded walk, taken from the pool when first needed.
func (sc *Scrubber) appendMatches(ms []match, s string, i int, esc bool, w *encodedWalk, edges *tokenEdges) ([]match, *encodedWalk) {
	v := &sc.vals[i]
	if v.literal || !esc {
		return appendWritten(ms, s, v.v, i, edges), w
	}
	if w == nil {
		w = getWalk() // its memory serves every value, and later calls
	}
	w.start(&sc.encoded()[i])
	for p, end := w.next(s, 0, edges); p >= 0; p, end = w.next(s, end, edges) {
		ms = append(ms, match{from: p, to: end, val: i})
	}
	return ms, w
}

// setReach sets each match's reach, ms being ordered by start.
func setReach(ms []match) {
	reach := 0
	for k := range ms {
		reach = max(reach, ms[k].to)
		ms[k].reach = reach
	}
}

// appendWritten appends to ms the occurrences of v (the value at index
// val) as written in s, left to right, each past the last; with edges,
// only those that stand as a whole token. The work is linear in len(s)
// times len(v) at worst.
func appendWritten(ms []match, s, v string, val int, edges *tokenEdges) []match {
	for from := 0; from <= len(s)-len(v); {
		i := strings.Index(s[from:], v)
		if i < 0 {
			break
		}
		at := from + i
		if edges != nil && !(edges.startsAt(s, at, v[0]) && edges.endsAt(s, at+len(v), v[len(v)-1])) {
			from = at + 1
			continue
		}
		ms = append(ms, match{from: at, to: at + len(v), val: val})
		from = at + len(v)
	}
	return ms
}

// mergeRuns orders ms, made of runs each ordered by start (ends[k] is
// where run k ends, the last at len(ms); empty runs may be given), by
// start, the longest first among matches that start together and the
// earlier run's first among equal ones, and reports the comparisons it
// took. Runs are merged in pairs, so the work is len(ms) times log2 of
// the runs' count: a text may hold thousands of matches (an error body
// echoing the key), which an insertion sort would take quadratic time
// over. ends is overwritten.
func mergeRuns(ms []match, ends []int) ([]match, int) {
	k, prev := 0, 0
	for _, e := range ends {
		if e > prev {
			ends[k], prev = e, e
			k++
		}
	}
	ends = ends[:k]
	if len(ends) <= 1 {
		return ms, 0
	}
	var buf [8]match // scratch for the common case without allocating
	var tmp []match
	if len(ms) <= len(buf) {
		tmp = buf[:len(ms)]
	} else {
		tmp = make([]match, len(ms))
	}
	work := 0
	src, dst := ms, tmp
	for len(ends) > 1 {
		k, lo := 0, 0
		for i := 0; i < len(ends); i += 2 {
			if i+1 == len(ends) { // an odd run out: it goes over as it is
				copy(dst[lo:ends[i]], src[lo:ends[i]])
				ends[k] = ends[i]
				k++
				break
			}
			mid, hi := ends[i], ends[i+1]
			work += mergeTwo(dst[lo:hi], src[lo:mid], src[mid:hi])
			ends[k] = hi
			k++
			lo = hi
		}
		ends = ends[:k]
		src, dst = dst, src
	}
	if &src[0] != &ms[0] {
		copy(ms, src)
	}
	return ms, work
}

// mergeTwo merges the ordered a and b into dst (as long as both), a's
// first among equal matches, and reports the comparisons it took.
func mergeTwo(dst, a, b []match) int {
	i, j, work := 0, 0, 0
	for k := range dst {
		switch {
		case j == len(b):
			dst[k], i = a[i], i+1
		case i == len(a):
			dst[k], j = b[j], j+1
		default:
			work++
			if before(b[j], a[i]) {
				dst[k], j = b[j], j+1
			} else {
				dst[k], i = a[i], i+1
			}
		}
	}
	return work
}

// before reports whether x comes before y: it starts first, or with y and
// runs further.
func before(x, y match) bool {
	return x.from < y.from || x.from == y.from && x.to > y.to
}
