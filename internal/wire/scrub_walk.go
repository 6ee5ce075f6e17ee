package wire

import (
	"math/bits"
	"sync"
)

// encodedWalk finds the matches replaceEncoded replaces. Its states are
// (i, q): a value's first i characters spelled from some start up to
// text position q. It takes positions in order and keeps each state once,
// with the leftmost start that reaches it: a match a later start would
// make through that state, the earlier start makes too, and further left.
// If that earlier match is itself cut off by one still further left, the
// walk begins again where that one ends (next). So within a walk each
// state is expanded once, and a walk re-reads at most the text one
// spelling of the value can span past where the previous match ended:
// the cost is linear in the text times the value's characters, however
// many ways lead to a state (a secret of '\', each "\" or "\\" or two
// layers deep, in a run of '\').
type encodedWalk struct {
	e *encodedValue
	m int // e's characters: states 1..m-1 live in the ring; m is an end

	// The ring holds the states at positions q..q+mask, slot pos&mask:
	// back[slot*width+i] is 1 + how far before pos the state's leftmost
	// start lies (0 for no state), and live[slot*width:][:count[slot]] are
	// the i's of the slot's states, each once. A row is only as wide as the
	// furthest character a walk has reached (grow): ordinary text rarely
	// spells more than a secret's first few characters, so the ring costs
	// what the walk gets through, not the secret's length.
	mask  int
	width int
	back  []int32
	live  []int32
	count []int32
	n     int // states in the ring

	// The ends of each distinct character's spellings at one position,
	// found once for all the states there that walk it: memoAt[id] is 1 +
	// the position memo[id] is for. Made with the walk's first state.
	memoAt []int
	memo   []endSet

	best, bestEnd int // the leftmost start with a match, its furthest end; best -1 for none
	expanded      int // states expanded, for the cost test
}

// walkPool keeps walks for reuse across scrub calls: apierr.Redact
// scrubs each string of an error's details on its own, and a walk's ring
// made for each call would cost more than the scrub itself. A walk comes
// back clean: next takes every state it keeps out of the ring before it
// returns.
var walkPool = sync.Pool{New: func() any { return new(encodedWalk) }}

// maxPooledRing is the most ring cells (slots times row width) a walk put
// back in walkPool may hold: one that text spelling much of a long secret
// widened is dropped, so that a pathological call's memory is not kept.
const maxPooledRing = 4 << 10

func getWalk() *encodedWalk { return walkPool.Get().(*encodedWalk) }

// putWalk gives w back to walkPool, unless its ring is too big to keep.
func putWalk(w *encodedWalk) {
	if len(w.back) > maxPooledRing {
		return
	}
	w.e = nil // a pooled walk holds on to no value
	walkPool.Put(w)
}

// start readies w for e.
func (w *encodedWalk) start(e *encodedValue) {
	w.e, w.m = e, len(e.chars)
	// More slots than one spelling's reach: a state is never kept past it.
	if mask := 1<<bits.Len(uint(e.reach)) - 1; mask > w.mask {
		w.mask = mask
		w.back, w.live, w.count, w.width = nil, nil, nil, 0 // made again when first needed
	}
	if len(w.memo) < e.distinct {
		w.memoAt, w.memo = nil, nil // likewise
	}
	clear(w.memoAt) // its positions are of another text's or value's walk
}

// next is the leftmost match at or after from, and its furthest end, or
// -1, -1. With edges, a match must stand as a whole token (tokenEdges).
func (w *encodedWalk) next(s string, from int, edges *tokenEdges) (int, int) {
	v := w.e.v
	w.best, w.bestEnd = -1, -1
	for q := from; q <= len(s); q++ {
		if w.n == 0 {
			if w.best >= 0 {
				return w.best, w.bestEnd
			}
			if q = nextStart(s, q, v[0]); q < 0 {
				return -1, -1
			}
		}
		if w.best < 0 && q < len(s) && mayStart(s[q], v[0]) && (edges == nil || edges.startsAt(s, q, v[0])) {
			w.expand(s, 0, q, q, edges)
		}
		if w.n == 0 {
			continue
		}
		slot := q & w.mask
		// expand may widen the ring (grow) while states are read: the
		// old live still holds them, and the slot's row is not written.
		states := w.live[slot*w.width:][:w.count[slot]]
		w.n -= len(states)
		w.count[slot] = 0
		for _, i := range states {
			k := slot*w.width + int(i)
			p := q - int(w.back[k]) + 1
			w.back[k] = 0
			if w.best < 0 || p <= w.best { // a start right of a match has lost
				w.expand(s, int(i), q, p, edges)
			}
		}
	}
	return w.best, w.bestEnd
}

// nextStart is the first position at or after q where a spelling of a
// value that begins with first may begin, or -1.
func nextStart(s string, q int, first byte) int {
	for ; q < len(s); q++ {
		if mayStart(s[q], first) {
			return q
		}
	}
	return -1
}

// mayStart reports whether a spelling of a value that begins with first
// may begin with c: as it is, or with an escape's '%' or '\', or '+' for
// a space.
func mayStart(c, first byte) bool {
	return c == first || c == '%' || c == '\\' || c == '+' && first == ' '
}

// expand walks character i of the value from state (i, q), reached from
// start p: each end of its spellings is state (i+1, end), or a match.
func (w *encodedWalk) expand(s string, i, q, p int, edges *tokenEdges) {
	w.expanded++
	e := w.e
	ends := w.ends(s, i, q)
	if i+1 < w.m {
		for off := range ends.all() {
			w.add(i+1, q+off, p)
		}
		return
	}
	for off := range ends.all() {
		end := q + off
		if edges != nil && !edges.endsAt(s, end, e.v[len(e.v)-1]) {
			continue
		}
		switch {
		case w.best < 0 || p < w.best:
			w.best, w.bestEnd = p, end
		case p == w.best:
			w.bestEnd = max(w.bestEnd, end)
		}
	}
}

// ends is where the spellings of the value's character i that start at q
// end, as offsets from q.
func (w *encodedWalk) ends(s string, i, q int) endSet {
	c := w.e.chars[i]
	if w.memoAt != nil && w.memoAt[c.id] == q+1 {
		return w.memo[c.id]
	}
	var ends endSet
	if w.e.first != nil {
		layeredEnds(&ends, s, q, c.ch, c.r, w.e.first[i])
	} else {
		spellEnds(&ends, q, s, q, c.ch, c.r)
	}
	if w.memoAt != nil {
		w.memoAt[c.id], w.memo[c.id] = q+1, ends
	}
	return ends
}

// add keeps state (i, pos) reached from start p, once, with its leftmost
// start.
func (w *encodedWalk) add(i, pos, p int) {
	// Here, not with the ring: a reused walk's ring may already be wide
	// enough for this value while start dropped a memo too small for it.
	if w.memoAt == nil {
		w.memoAt, w.memo = make([]int, w.e.distinct), make([]endSet, w.e.distinct)
	}
	if i >= w.width {
		w.grow(i)
	}
	slot := pos & w.mask
	k := slot*w.width + i
	switch back := int32(pos - p + 1); {
	case w.back[k] == 0:
		w.back[k] = back
		w.live[slot*w.width+int(w.count[slot])] = int32(i)
		w.count[slot]++
		w.n++
	case back > w.back[k]: // never seen to happen: see TestEncodedWalkKeepsLeftmostStart
		w.back[k] = back
	}
}

// grow widens the ring's rows to hold character i, at least doubling them
// (so the copies cost no more than the ring), keeping the states in it.
func (w *encodedWalk) grow(i int) {
	slots := w.mask + 1
	if w.count == nil {
		w.count = make([]int32, slots)
	}
	width := min(max(2*w.width, i+1, 8), w.m)
	back := make([]int32, slots*width)
	live := make([]int32, slots*width)
	if w.n > 0 {
		for slot := range slots {
			copy(back[slot*width:], w.back[slot*w.width:][:w.width])
			copy(live[slot*width:], w.live[slot*w.width:][:w.count[slot]])
		}
	}
	w.back, w.live, w.width = back, live, width
}
