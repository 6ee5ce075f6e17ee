package wire

import "testing"

// A short secret (4 to 7 bytes) is taken out where it stands as a whole
// token, in any punctuation, and left inside longer words and numbers;
// one under 4 bytes is left to the field rule.
func TestSecretScrubberShortValuesAsWholeTokens(t *testing.T) {
	scrub := SecretScrubber("730451", "k-91x7", "8080", "-y", `a"bc`)
	for in, want := range map[string]string{
		"upstream refused PIN 730451":           "upstream refused PIN [REDACTED]",
		"pin=730451;":                           "pin=[REDACTED];",
		`{"pin":"730451"}`:                      `{"pin":"[REDACTED]"}`,
		"key k-91x7 is not allowed":             "key [REDACTED] is not allowed",
		"key=k-91x7,k-91x7":                     "key=[REDACTED],[REDACTED]",
		"listening on :8080 after 18080 and 80": "listening on :[REDACTED] after 18080 and 80",
		"order 7304512 and A730451 stay":        "order 7304512 and A730451 stay",
		"xk-91x7 and k-91x7y stay":              "xk-91x7 and k-91x7y stay",
		"npx -y server":                         "npx -y server",
		`said "a\"bc"`:                          `said "[REDACTED]"`, // as JSON escapes it
		"8080":                                  "[REDACTED]",
	} {
		if got := scrub(in); got != want {
			t.Errorf("scrub(%q) = %q, want %q", in, got, want)
		}
	}
}

// A short value's first or last byte that is punctuation is a token edge
// itself: "-k9x" is taken out of "a-k9x" as \b would see it.
func TestWholeTokenAtPunctuation(t *testing.T) {
	for _, c := range []struct {
		s    string
		i, j int
		want bool
	}{
		{"a-k9x", 1, 5, true},
		{"ak9x-", 1, 5, false},
		{"k9x-b", 0, 4, true},
		{"k9x-b", 0, 3, true},
		{"k9xb", 0, 3, false},
	} {
		if got := wholeToken(c.s, c.i, c.j); got != c.want {
			t.Errorf("wholeToken(%q, %d, %d) = %v, want %v", c.s, c.i, c.j, got, c.want)
		}
	}
}

// A short value's token edges are ASCII's: '_' and non-ASCII bytes are
// edges, so such a neighbour does not keep the value in (the safe side).
func TestShortValueNextToNonASCIIIsTakenOut(t *testing.T) {
	scrub := SecretScrubber("7304")
	for in, want := range map[string]string{
		"café7304":  "café[REDACTED]",
		"_7304_":    "_[REDACTED]_",
		"17304":     "17304",
		"7304x":     "7304x",
		"pin 7304.": "pin [REDACTED].",
	} {
		if got := scrub(in); got != want {
			t.Errorf("scrub(%q) = %q, want %q", in, got, want)
		}
	}
}

// A short secret glued to a longer one, or to a value of another group
// (the API key), is taken out: a neighbour inside another value's match
// is a token edge, as it was when the longer one was replaced first. A
// short one inside a longer word is still left.
func TestShortSecretNextToAnotherMatch(t *testing.T) {
	long, short := "abcdefghijkl", "PIN9"
	scrub := SecretScrubber(long, short)
	for in, want := range map[string]string{
		"token=" + long + short:        "token=[REDACTED][REDACTED]",
		"token=" + short + long:        "token=[REDACTED][REDACTED]",
		"token=abcdefghijk%6C" + short: "token=[REDACTED][REDACTED]", // the long one escaped
		"token=" + long + short + "x":  "token=[REDACTED]PIN9x",
		"token=x" + short + " " + long: "token=xPIN9 [REDACTED]",
		"token=" + long + "-" + short:  "token=[REDACTED]-[REDACTED]",
	} {
		if got := scrub(in); got != want {
			t.Errorf("scrub(%q) = %q, want %q", in, got, want)
		}
	}
	sc := NewScrubber(ScrubValues{Marker: "sk_***", Rule: AsWritten, Values: []string{"sk_live_KEY"}},
		ScrubValues{Marker: "[R]", Rule: RequestSecret, Values: []string{"PIN9", "PIN12"}})
	for in, want := range map[string]string{
		"id sk_live_KEYPIN9":          "id sk_***[R]",
		"id sk_live_KEYPIN9 x%2F":     "id sk_***[R] x%2F", // the encoded walk's whole-token test
		"id sk_live_KEYPIN12%2FPIN9y": "id sk_***[R]%2FPIN9y",
	} {
		if got := sc.Scrub(in); got != want {
			t.Errorf("Scrub(%q) = %q, want %q", in, got, want)
		}
	}
}
