package wire

import (
	"net/url"
	"testing"
)

// anySpelling is the Scrub of a Scrubber of values by the AnySpelling
// rule (a credential header's), with marker; nil when none is kept.
func anySpelling(marker string, values ...string) func(string) string {
	sc := NewScrubber(ScrubValues{Marker: marker, Rule: AnySpelling, Values: values})
	if sc == nil {
		return nil
	}
	return sc.Scrub
}

// The AnySpelling rule takes a value of minScrubbed bytes or more out in
// any spelling (mixed-case and part escapes, another encoder's JSON, two
// layers), leaves a shorter one and text without a value as they are,
// and keeps no value (a nil Scrubber) when none is long enough.
func TestAnySpelling(t *testing.T) {
	const v = "ZZSECRET/12@34~56+78=ab"
	scrub := anySpelling("REDACTED", v, "short12")
	for _, spelt := range []string{
		v,
		"ZZSECRET%2f12%4034~56%2B78%3Dab",   // mixed-case hex
		"ZZSEC%52ET/12@34%7E56+78=ab",       // part-escaped
		`ZZSECRET\/12@34~56+78=ab`,          // JSON with \/
		`ZZSECRET\u002F12\u004034~56+78=ab`, // JSON \u escapes
		url.QueryEscape(url.QueryEscape(v)), // two layers: %252F
		"ZZSECRET%252f12%2540" + "34~56%252B78%253Dab", // two layers, mixed case
	} {
		if got := scrub("bad token " + spelt + " end"); got != "bad token REDACTED end" {
			t.Errorf("spelt %q: got %q", spelt, got)
		}
	}
	for _, keep := range []string{"short12 and short1%32", "see https://x.example/?a=%2f&b=%2B\\n"} {
		if got := scrub(keep); got != keep {
			t.Errorf("scrub(%q) = %q, want it as written", keep, got)
		}
	}
	if anySpelling("REDACTED", "short12", "") != nil {
		t.Error("a Scrubber of AnySpelling values all under minScrubbed bytes is not nil")
	}
}

// Each value's matches are found in the text as given and their union is
// replaced: a value found as written inside another's escaped spelling,
// longer or shorter than it, hides none of that spelling, and a value
// that begins another leaves no tail.
func TestAnySpellingUnionOfMatches(t *testing.T) {
	const long = "ZZSECRET/1234" // escaped: ZZSECRET%2f1234
	for _, c := range []struct{ name, other, in, want string }{
		{"longer value inside the escaped spelling", "ZZSECRET%2f123", "x ZZSECRET%2f1234 y", "x REDACTED y"},
		{"shorter value inside the escaped spelling", "CRET%2f123", "x ZZSECRET%2f1234 y", "x REDACTED y"},
		{"value overlapping the spelling's end", "%2f1234-tail", "x ZZSECRET%2f1234-tail y", "x REDACTED y"},
		{"value beginning another", "ZZSECRET/1234/more", "x ZZSECRET/1234/more y", "x REDACTED y"},
		{"two values side by side", "OTHERSECRET", "x ZZSECRET/1234OTHERSECRET y", "x REDACTEDREDACTED y"},
	} {
		for _, order := range [][]string{{long, c.other}, {c.other, long}} {
			if got := anySpelling("REDACTED", order...)(c.in); got != c.want {
				t.Errorf("%s, values %q: scrub(%q) = %q, want %q", c.name, order, c.in, got, c.want)
			}
		}
	}
}

// A value with a space is taken out when QueryEscape writes it as '+', in
// text with no other escape.
func TestAnySpellingSpaceAsPlus(t *testing.T) {
	scrub := anySpelling("REDACTED", "two words here")
	if got := scrub("q=two+words+here"); got != "q=REDACTED" {
		t.Errorf("got %q", got)
	}
}

// Text without an escape and without a value costs no allocation: error
// text is cleaned on every error a client with a credential header meets.
// (Escaped text takes a pooled walk, which the race detector's sync.Pool
// drops at random: BenchmarkAnySpelling measures it.)
func TestAnySpellingPlainTextAllocatesNothing(t *testing.T) {
	scrub := anySpelling("REDACTED", "ZZSECRET/1234", "another-secret-value")
	const s = "upstream refused the request for tool launch"
	if n := testing.AllocsPerRun(100, func() { _ = scrub(s) }); n != 0 {
		t.Errorf("scrub(%q) allocates %v times, want 0", s, n)
	}
}
