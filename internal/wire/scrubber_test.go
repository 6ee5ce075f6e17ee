package wire

import (
	"net/url"
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

// ScrubRaw replaces only the Raw values' matches, each with every match
// overlapping it, and leaves the others for a later Scrub.
func TestScrubberScrubRaw(t *testing.T) {
	sc := NewScrubber(
		ScrubValues{Marker: "sk_***", Rule: AsWritten, Values: []string{"sk_live_KEY"}, Raw: true},
		ScrubValues{Marker: "REDACTED", Rule: AnySpelling, Values: []string{"tok/sk_live_KEY", "other/secret"}},
	)
	const in = `{"a":"tok%2Fsk_live_KEY","b":"other%2Fsecret","c":"sk_live_KEY"}`
	const want = `{"a":"REDACTED","b":"other%2Fsecret","c":"sk_***"}`
	if got := sc.ScrubRaw(in); got != want {
		t.Errorf("ScrubRaw(%q) = %q, want %q", in, got, want)
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
