package wire

import (
	"net/url"
	"slices"
	"strings"
	"testing"
)

// SecretScrubber finds every value's matches, in every spelling, in the
// text as given: a secret found inside another's percent-, JSON- or
// two-layer spelling, longer or shorter than it or a short whole token,
// hides none of that spelling, whichever order the values come in.
func TestSecretScrubberUnionOfMatches(t *testing.T) {
	const long = "ZZSECRET/1234" // ZZSECRET%2f1234, ZZSECRET\u002f1234, ZZSECRET%252f1234
	for _, c := range []struct{ name, long, other, in string }{
		{"shorter, inside %XX", long, "SECRET%2f12", "x ZZSECRET%2f1234 y"},
		{"longer, inside %XX", long, "ZZSECRET%2f123", "x ZZSECRET%2f1234 y"},
		{"shorter, inside \\uXXXX", long, `SECRET\u002f12`, `x ZZSECRET\u002f1234 y`},
		{"longer, inside \\uXXXX", long, `ZZSECRET\u002f123`, `x ZZSECRET\u002f1234 y`},
		{"shorter, inside two layers", long, "SECRET%252f12", "x ZZSECRET%252f1234 y"},
		{"longer, inside two layers", long, "ZZSECRET%252f123", "x ZZSECRET%252f1234 y"},
		{"short token, inside %XX", "ZZSECRET/1234/tail", "1234", "x " + url.PathEscape("ZZSECRET/1234/tail") + " y"},
	} {
		for _, order := range [][]string{{c.long, c.other}, {c.other, c.long}} {
			if got := SecretScrubber(order...)(c.in); got != "x [REDACTED] y" {
				t.Errorf("%s, values %q: scrub(%q) = %q, want %q", c.name, order, c.in, got, "x [REDACTED] y")
			}
		}
	}
}

// Overlapping matches of values with different markers are one marker:
// the leftmost match's, the longest of those that start there.
func TestScrubberMarkerOfOverlap(t *testing.T) {
	sc := NewScrubber(
		ScrubValues{Marker: "<key>", Rule: AsWritten, Values: []string{"KEYKEY"}},
		ScrubValues{Marker: "<hdr>", Rule: AnySpelling, Values: []string{"tok/KEYKEY"}},
	)
	for in, want := range map[string]string{
		"a tok%2FKEYKEY b": "a <hdr> b", // the header value's spelling starts first
		"a KEYKEY b":       "a <key> b",
		"a KEYKEY%2F b":    "a <key>%2F b",
		"a tok/KEYKEY b":   "a <hdr> b",
	} {
		if got := sc.Scrub(in); got != want {
			t.Errorf("Scrub(%q) = %q, want %q", in, got, want)
		}
	}
}

// With adds values to a copy, sharing what its parent made: the parent
// is left as it is, and a With of nothing is the parent.
func TestScrubberWith(t *testing.T) {
	base := NewScrubber(ScrubValues{Marker: "[A]", Rule: AnySpelling, Values: []string{"first/secret"}})
	_ = base.Scrub("warm %2F") // makes base's encoded values, which the child shares
	child := base.With(ScrubValues{Marker: "[B]", Rule: RequestSecret, Values: []string{"second/secret", "ab"}})
	const in = "first%2Fsecret second%2fsecret ab"
	if got := child.Scrub(in); got != "[A] [B] ab" {
		t.Errorf("child.Scrub(%q) = %q", in, got)
	}
	if got := base.Scrub(in); got != "[A] second%2fsecret ab" {
		t.Errorf("base.Scrub(%q) = %q", in, got)
	}
	if base.With() != base || base.With(ScrubValues{Rule: AnySpelling, Values: []string{"short"}}) != base {
		t.Error("With of no value kept is not its receiver")
	}
	if NewScrubber() != nil || (*Scrubber)(nil).Scrub("x") != "x" {
		t.Error("an empty Scrubber is not nil, or nil does not leave text as it is")
	}
}

// A value given again by the same rule (a key and its path and query
// escapes, usually one string) is held once, Raw if any copy is; by
// another rule (as written alone, or in any spelling) it is another value.
func TestScrubberHoldsEachValueOnce(t *testing.T) {
	const key = "sk_live_abcdefgh"
	sc := NewScrubber(ScrubValues{Marker: "sk_***", Rule: AsWritten, Values: []string{key, key, key}})
	if len(sc.vals) != 1 {
		t.Fatalf("a value given thrice is held %d times", len(sc.vals))
	}
	raw := sc.With(ScrubValues{Marker: "other", Rule: AsWritten, Raw: true, Values: []string{key}})
	if raw == sc || len(raw.vals) != 1 || !raw.vals[0].raw || raw.vals[0].marker != "sk_***" || sc.vals[0].raw {
		t.Errorf("the value again, Raw: %+v (parent %+v)", raw.vals, sc.vals)
	}
	if sc.With(ScrubValues{Marker: "x", Rule: AsWritten, Values: []string{key}}) != sc {
		t.Error("With of a value held already is not its receiver")
	}
	if any := sc.With(ScrubValues{Marker: "x", Rule: AnySpelling, Values: []string{key}}); len(any.vals) != 2 {
		t.Errorf("the value by another rule is held %d times in all, want 2", len(any.vals))
	}
}

// Ordering a text's matches costs comparisons in proportion to them: the
// values' runs (each left to right) are merged, two at a time, rather than
// sorted by insertion, which took quadratic time over an error body a
// server filled with thousands of echoes of a few values. Doubling the
// echoes at most doubles the comparisons, and three runs take at most two
// per match.
func TestScrubberManyMatchesLinear(t *testing.T) {
	vals := []string{"sk_live_abcdefgh", "tok-0123456789", "other/secret"}
	sc := NewScrubber(ScrubValues{Marker: "sk_***", Rule: AsWritten, Values: []string{vals[0], vals[0], vals[0]}},
		ScrubValues{Marker: "R", Rule: AnySpelling, Values: vals[1:]})
	work := func(n int) int {
		s := strings.Repeat(strings.Join(vals, " ")+" ", n)
		ms, work := sc.sortedMatches(s, nil, false)
		if len(ms) != 3*n {
			t.Fatalf("%d echoes: %d matches, want %d", n, len(ms), 3*n)
		}
		if !slices.IsSortedFunc(ms, func(x, y match) int { return x.from - y.from }) {
			t.Fatalf("%d echoes: matches out of order", n)
		}
		if work > 2*len(ms) {
			t.Errorf("%d matches of 3 values took %d comparisons, want at most %d", len(ms), work, 2*len(ms))
		}
		return work
	}
	if w1, w2 := work(1000), work(2000); w2 > 2*w1+2 {
		t.Errorf("twice the echoes took %d comparisons, once %d: not linear", w2, w1)
	}
}

// mergeRuns orders matches by start, the longest first among those that
// start together and the earlier run's first among equal ones, whatever
// the runs' count (odd, empty runs among them).
func TestMergeRuns(t *testing.T) {
	ms := []match{
		{from: 0, to: 4, val: 0}, {from: 9, to: 12, val: 0}, // run 0
		{from: 0, to: 6, val: 1}, {from: 5, to: 7, val: 1}, // run 1
		// run 2 empty
		{from: 0, to: 4, val: 3}, {from: 9, to: 14, val: 3}, {from: 20, to: 21, val: 3}, // run 3
	}
	got, _ := mergeRuns(slices.Clone(ms), []int{2, 4, 4, 7})
	want := []match{ms[2], ms[0], ms[4], ms[3], ms[5], ms[1], ms[6]}
	if !slices.Equal(got, want) {
		t.Errorf("mergeRuns = %v, want %v", got, want)
	}
}

// ScrubNames leaves the TextOnly values' matches, and a TextOnly value
// given again without the flag is a name's value too; Scrub takes out
// every value, matched together.
func TestScrubberScrubNames(t *testing.T) {
	sc := NewScrubber(
		ScrubValues{Marker: "sk_***", Rule: AsWritten, Values: []string{"sk_live_KEY"}},
		ScrubValues{Marker: "R", Rule: AnySpelling, TextOnly: true, Values: []string{"tok/sk_live_KEY", "header-value"}},
	)
	const in = "tok%2Fsk_live_KEY header-value"
	if got, want := sc.ScrubNames(in), "tok%2Fsk_*** header-value"; got != want {
		t.Errorf("ScrubNames(%q) = %q, want %q", in, got, want)
	}
	if got, want := sc.Scrub(in), "R R"; got != want {
		t.Errorf("Scrub(%q) = %q, want %q", in, got, want)
	}
	both := sc.With(ScrubValues{Marker: "S", Rule: AnySpelling, Values: []string{"header-value"}})
	if got, want := both.ScrubNames(in), "tok%2Fsk_*** R"; got != want {
		t.Errorf("with the value again, not TextOnly: ScrubNames(%q) = %q, want %q", in, got, want)
	}
}

// SecretFields takes out the credentials named by their field and leaves
// a tunnel URL's ?k= to the transport, which takes it out of every text
// itself (once); SecretScrubber takes out both.
func TestSecretFieldsLeavesTunnelSecret(t *testing.T) {
	const in = "accessToken=tok123 at https://t.example/x?k=tunnel-secret-1"
	if got, want := SecretFields(in), "accessToken=[REDACTED] at https://t.example/x?k=tunnel-secret-1"; got != want {
		t.Errorf("SecretFields(%q) = %q, want %q", in, got, want)
	}
	if got, want := SecretScrubber()(in), "accessToken=[REDACTED] at https://t.example/x?k=REDACTED"; got != want {
		t.Errorf("SecretScrubber()(%q) = %q, want %q", in, got, want)
	}
}
