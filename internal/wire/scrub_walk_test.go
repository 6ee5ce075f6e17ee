package wire

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"net/url"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// replaceEncodedPerStart is the encoded pass walked the plain way, as it
// was before encodedWalk: each start on its own, the positions each
// character's spellings reach kept in a set, the longest accepted end of
// the leftmost start with one taken. Its cost grows with the starts times
// the positions a walk holds; it is here to hold encodedWalk to its
// results.
func replaceEncodedPerStart(s string, e *encodedValue, repl string, whole bool) string {
	var b strings.Builder
	last := 0
	for p := 0; p < len(s); p++ {
		if !mayStart(s[p], e.v[0]) {
			continue
		}
		cur := map[int]bool{p: true}
		for i, c := range e.chars {
			next := map[int]bool{}
			for q := range cur {
				var ends endSet
				if e.first != nil {
					layeredEnds(&ends, s, q, c.ch, c.r, e.first[i])
				} else {
					spellEnds(&ends, q, s, q, c.ch, c.r)
				}
				for off := range ends.all() {
					next[q+off] = true
				}
			}
			cur = next
		}
		end := -1
		for q := range cur {
			if q > end && (!whole || tokenAt(s, p, q, e.v[0], e.v[len(e.v)-1])) {
				end = q
			}
		}
		if end < 0 {
			continue
		}
		b.WriteString(s[last:p])
		b.WriteString(repl)
		last, p = end, end-1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// On texts dense with ambiguous escapes ('\' as itself or the start of
// "\\", '%' or "%25", a word byte next to a short value), partly made of
// the value's own spellings, the walk replaces exactly what a walk from
// each start on its own does: keeping a state once, with its leftmost
// start, loses no match and no end. One walk serves every case, as one
// serves a scrub call's values, of any length.
func TestEncodedWalkMatchesPerStartWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	valueChars := []string{`\`, `%`, `"`, `/`, "a", "5", "c", " ", "+", "é", "😀"}
	pieces := []string{`\`, `\\`, `%`, `%25`, `%5C`, `%5c`, `%22`, `\"`, `\/`, `\u005c`, `\u005C`, `\u0022`, `%255C`, `\\u005c`, "a", "5", "c", "x", " ", "+", "é", `\u00e9`, "Z"}
	var w encodedWalk
	for range 3000 {
		var v strings.Builder
		for n := 4 + rng.IntN(9); v.Len() < n; {
			v.WriteString(valueChars[rng.IntN(len(valueChars))])
		}
		whole := v.Len() < minScrubbed
		e := newEncodedValue(v.String(), !whole)
		sp := spellings(e.v, rng)
		names := slices.Sorted(maps.Keys(sp)) // so that the seed alone picks a spelling
		var text strings.Builder
		for range 1 + rng.IntN(40) {
			if rng.IntN(6) == 0 {
				text.WriteString(sp[names[rng.IntN(len(names))]])
			} else {
				text.WriteString(pieces[rng.IntN(len(pieces))])
			}
		}
		s := text.String()
		want := replaceEncodedPerStart(s, &e, "[R]", whole)
		if got := replaceEncoded(&w, s, &e, "[R]", whole); got != want {
			t.Fatalf("value %q (whole %v) in %q: walk gives %q, per-start walk %q", e.v, whole, s, got, want)
		}
		if dirt := ringDirt(&w); dirt != "" {
			t.Fatalf("value %q (whole %v) in %q: the walk left %s", e.v, whole, s, dirt)
		}
	}
}

// The walk's cost is linear in the text times the value's characters: on
// the inputs that made a walk from each start cost the square of the
// value's length or worse (a secret of '\' or '\"', two layers deep, in a
// run of text that spells every prefix of it many ways over), each state
// (character, position) is expanded at most once within one walk (next).
// After a match the next walk begins again at its end and may expand
// again what the last one expanded past it (at most one spelling's reach
// of text for each match), so on a text with matches all along the bound
// holds only because not every state is spelled there (the last case: a
// fifth under it). A walk that keeps positions per start, or keeps a
// position once per way to it, expands far more.
func TestEncodedWalkCostLinear(t *testing.T) {
	bs := func(n int) string { return strings.Repeat(`\`, n) }
	for _, c := range []struct{ name, secret, text string }{
		{"bs8 in bs", bs(8) + "Z", bs(4 << 10)},
		{"bs64 in bs", bs(64) + "Z", bs(1 << 10)},
		{"bsquote128 in bsbsbsquote", strings.Repeat(`\"`, 128) + "Z", strings.Repeat(`\\\"`, 1<<10)},
		{"bs16 in pct5C", bs(16) + "Z", strings.Repeat(`%5C`, 2<<10)},
		{"bs16 in pct255C", bs(16) + "Z", strings.Repeat(`%255C`, 1<<10)},
		{"pct64 in pct25", strings.Repeat("%", 64) + "Z", strings.Repeat(`%25`, 2<<10)},
		// Matches all along: each walk ends on one and the next begins
		// where it ended, re-reading what the last one read past it.
		{"bs16 matched in bs runs", bs(16) + "Z", strings.Repeat(bs(40)+"Z", 200)},
	} {
		var w encodedWalk
		e := newEncodedValue(c.secret, true)
		replaceEncoded(&w, c.text, &e, "[R]", false)
		if dirt := ringDirt(&w); dirt != "" {
			t.Errorf("%s: the walk left %s", c.name, dirt)
		}
		if limit := (len(c.text) + 1) * len(e.chars); w.expanded > limit {
			t.Errorf("%s: %d states expanded for %d bytes of text and a value of %d characters; want at most %d", c.name, w.expanded, len(c.text), len(e.chars), limit)
		}
	}
}

// A state reached from a start further left after one from a start
// further right keeps the left one: a match through it is that start's.
//
// No text is known that gets here, so the walk is driven by hand. The
// left start's path would arrive later, from a later position (q2 > q1
// at character i-1), so the two paths cross: had they met at an earlier
// state, that state, taken first, would already carry the left start on.
// Crossing without meeting takes a character the left start spells
// strictly around the right start's spelling of it ('\' two layers deep
// as \\\\ around \), and a last character the right start spells with
// the left one's as a suffix (\" and "). In every text tried the left
// start got there first by another path: add's update never ran in 1.3M
// walks of '\', '"', 'a' and of the escape pieces above, and without it
// 4M walks over '\', '"', '/', 'a' and every text of up to 10 of '\',
// '"', 'a' (values of up to 4 characters) matched the per-start walk. That
// it cannot run is not proved, and the walk's claim (each state keeps its
// leftmost start, so a match a later start makes the earlier one makes
// too) should not rest on it: the check costs a compare.
func TestEncodedWalkKeepsLeftmostStart(t *testing.T) {
	var w encodedWalk
	e := newEncodedValue(`\\\\\\\\Z`, true)
	w.start(&e)
	w.add(3, 20, 9)
	w.add(3, 20, 4)
	w.add(3, 20, 6)
	slot := 20 & w.mask
	if got := 20 - int(w.back[slot*w.width+3]) + 1; got != 4 || w.n != 1 {
		t.Errorf("state (3, 20) reached from 9, 4, 6: kept start %d, %d states; want 4, 1", got, w.n)
	}
}

// A walk's ring grows with how far into the value the walk gets, not with
// the value's length: short text that spells a 2.3 KB token's first
// character or so (an 'e' of "eyJ...", a '%') costs a walk a few KiB, not
// the 1.2 MB a ring as wide as the token takes.
func TestEncodedWalkRingFollowsProgress(t *testing.T) {
	e := newEncodedValue(jwtLike(2300), true)
	const walks = 10
	for _, s := range []string{"bad % value: abcdefghijklm", manyDetails(1)[0], `%65yJhbG\u0063i %65`} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range walks {
			var w encodedWalk
			replaceEncoded(&w, s, &e, "[R]", false)
		}
		runtime.ReadMemStats(&after)
		if per := (after.TotalAlloc - before.TotalAlloc) / walks; per > 16<<10 {
			t.Errorf("a walk of %q for a value of %d characters allocated %d bytes; want at most %d", s, len(e.chars), per, 16<<10)
		}
	}
}

// ringDirt says what a walk left in its ring, or "" for nothing: a walk
// goes back to walkPool as it is, so the next one must find it clean.
func ringDirt(w *encodedWalk) string {
	if w.n != 0 {
		return fmt.Sprintf("%d states counted", w.n)
	}
	for slot, c := range w.count {
		if c != 0 {
			return fmt.Sprintf("slot %d lists %d states", slot, c)
		}
	}
	for k, b := range w.back {
		if b != 0 {
			return fmt.Sprintf("state %d of slot %d has a start", k%w.width, k/w.width)
		}
	}
	return ""
}

// Scrub calls reuse walks (walkPool): an error's details scrubbed one
// short string at a time, each walking the first character or so of a
// 2.3 KB token, allocate no ring per call. The bound is on what the
// strings cost beyond the same strings without their '%', which skip the
// encoded pass: under the race detector the rest of a scrub allocates
// too, and the pool drops some of what it is given.
func TestSecretScrubberReusesWalks(t *testing.T) {
	scrub := SecretScrubber(jwtLike(2300))
	details := manyDetails(60 << 10)
	scrub(details[0]) // the scrubber's encoded values, made once
	// The least of five: under -race sync.Pool drops a random share of
	// Puts (the scrub's other pools' too), and a concurrent collection or
	// goroutine adds to TotalAlloc; both only add.
	perCall := func(text string) int64 {
		least := int64(math.MaxInt64)
		for range 5 {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range details {
				scrub(text)
			}
			runtime.ReadMemStats(&after)
			least = min(least, int64(after.TotalAlloc-before.TotalAlloc)/int64(len(details)))
		}
		return least
	}
	plain := strings.ReplaceAll(details[0], "%", "")
	// A fresh walk's ring for this text and token is about 5 KB.
	if walked, skipped := perCall(details[0]), perCall(plain); walked-skipped > 2500 {
		t.Errorf("scrubbing %q allocated %d bytes a call, %q %d; want at most 2500 more", details[0], walked, plain, skipped)
	}
}

// A walk whose ring text spelling much of a long secret widened is not
// pooled, so no pathological call's memory is kept for good; a walk that
// is pooled holds on to no value.
func TestPutWalkDropsBigRing(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // a collection empties the pool
	secret := jwtLike(300)
	e := newEncodedValue(secret, true)
	big := new(encodedWalk)
	replaceEncoded(big, "x="+url.QueryEscape(secret)+"&", &e, "[R]", false)
	if len(big.back) <= maxPooledRing {
		t.Fatalf("a walk through %d characters has a ring of %d cells; want more than %d", len(e.chars), len(big.back), maxPooledRing)
	}
	putWalk(big)
	for range 4 {
		if getWalk() == big {
			t.Fatalf("a walk with a ring of %d cells came back from the pool", len(big.back))
		}
	}
	small := new(encodedWalk)
	replaceEncoded(small, "bad % value", &e, "[R]", false)
	putWalk(small)
	if w := getWalk(); w == small && w.e != nil {
		t.Errorf("a pooled walk holds on to a value of %d bytes", len(w.e.v))
	}
}

// A walk reused for a value of more distinct characters than its last one,
// with a ring already wide enough for it, walks with a memo: without one,
// every state recomputes its character's ends (3.8-6x slower on runs of
// '\').
func TestReusedWalkKeepsMemo(t *testing.T) {
	e1 := newEncodedValue(strings.Repeat("a", 64), true)
	e2 := newEncodedValue(strings.Repeat(`\"`, 32), true)
	reused := new(encodedWalk)
	replaceEncoded(reused, "x"+e1.v+"x", &e1, "[R]", false)
	if len(reused.back) > maxPooledRing {
		t.Fatalf("ring %d cells: would not be pooled", len(reused.back))
	}
	replaceEncoded(reused, strings.Repeat(`\\\\\\\"`, 100), &e2, "[R]", false)
	if len(reused.memo) < e2.distinct {
		t.Errorf("a reused walk (ring %d cells) walked a value of %d distinct characters with a memo of %d", len(reused.back), e2.distinct, len(reused.memo))
	}
}
