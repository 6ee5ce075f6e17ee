package wire

import (
	"encoding/json"
	"testing"
)

// rawScrubber is the scrubber ScrubRaw's tests use: a key, Raw, and
// credential header values, found in any spelling but not Raw.
func rawScrubber(key string, headers ...string) *Scrubber {
	return NewScrubber(
		ScrubValues{Marker: "sk_***", Rule: AsWritten, Values: []string{key}, Raw: true},
		ScrubValues{Marker: "REDACTED", Rule: AnySpelling, Values: headers},
	)
}

// ScrubRaw replaces only the Raw values' matches, each with every match
// overlapping it in the same JSON string, and leaves the others for a
// later Scrub.
func TestScrubberScrubRaw(t *testing.T) {
	sc := rawScrubber("sk_live_KEY", "tok/sk_live_KEY", "other/secret")
	const in = `{"a":"tok%2Fsk_live_KEY","b":"other%2Fsecret","c":"sk_live_KEY","d":"sk_live_KEY/tok\/sk_live_KEY"}`
	const want = `{"a":"REDACTED","b":"other%2Fsecret","c":"sk_***","d":"sk_***/REDACTED"}`
	if got := sc.ScrubRaw(in); got != want {
		t.Errorf("ScrubRaw(%q) = %q, want %q", in, got, want)
	}
}

// A valid JSON body stays valid, its code and details keys as they were:
// another value's match overlapping the key never takes in a string's
// quote nor part of an escape (a header value written with quotes, or
// matched from an escaped quote on); a Raw value's own match that breaks
// the body leaves the body as it was.
func TestScrubberScrubRawKeepsJSON(t *testing.T) {
	const key = "sk_live_KEY12345"
	for _, c := range []struct {
		name, header, in, want string
	}{
		{"header value with quotes", `"` + key + `"`,
			`{"code":"VALIDATION_ERROR","details":{"got":"` + key + `"}}`,
			`{"code":"VALIDATION_ERROR","details":{"got":"sk_***"}}`},
		{"header value with a quote, JSON-escaped", `"` + key, // its match starts at the escape
			`{"code":"E","message":"got \"` + key + `\""}`,
			`{"code":"E","message":"got REDACTED\""}`},
		{"header value over a quote into the code", key + `","code`,
			`{"message":"` + key + `","code":"E"}`,
			`{"message":"sk_***","code":"E"}`},
		{"header value from an escape's middle", `u0022` + key,
			`{"message":"\u0022` + key + `"}`,
			`{"message":"\u0022sk_***"}`},
		{"header value inside the string", "tok/" + key + "/end",
			`{"message":"tok\/` + key + `\/end"}`,
			`{"message":"REDACTED"}`},
	} {
		sc := rawScrubber(key, c.header)
		got := sc.ScrubRaw(c.in)
		if got != c.want || !json.Valid([]byte(got)) {
			t.Errorf("%s: ScrubRaw(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
	// A Raw value spanning a quote itself: only its matches go, and when
	// that breaks the body too, the body stays as it was.
	sc := NewScrubber(ScrubValues{Marker: "X", Rule: AsWritten, Raw: true, Values: []string{`a","b`}})
	if in, got := `{"k":"a","b":"c"}`, sc.ScrubRaw(`{"k":"a","b":"c"}`); got != in {
		t.Errorf("ScrubRaw(%q) = %q, want it as it was", in, got)
	}
	if in := `{"k":"a","b"`; sc.ScrubRaw(in) != `{"k":"X"` {
		t.Errorf("ScrubRaw of a body that is no JSON = %q, want the value replaced", sc.ScrubRaw(in))
	}
}

// A Raw value ending in '\' matches, as written, the '\' that starts an
// escape in a valid body; replaced, it left JSON still valid that said
// something else (the NUL a "u0000"). The body is left as it is: the
// value is not in the decoded text. In any spelling (a key), the same.
func TestScrubberScrubRawMatchEndingInsideEscape(t *testing.T) {
	for _, c := range []struct {
		sc *Scrubber
		in string
	}{
		{NewScrubber(ScrubValues{Marker: "X", Rule: AsWritten, Raw: true, Values: []string{`10\`}}), `{"m":"x10\u0000y"}`},
		{NewScrubber(KeyValues("0000010\\", "X")), `{"code":"E","message":"\u0000%%330\\u00300%30%30\\u0031%30%5c\u0000"}`},
	} {
		if got := c.sc.ScrubRaw(c.in); got != c.in {
			t.Errorf("ScrubRaw(%s) = %s, want it as it was", c.in, got)
		}
	}
}

// Another value's match that starts where a Raw one does, and runs
// further, sorts first; it still joins the Raw match (under the Raw
// value's marker, neither starting first), so nothing of its tail is left
// for the decoded text, where the value is no longer whole.
func TestScrubberScrubRawOtherStartsWithRaw(t *testing.T) {
	const key = "sk_live_abcdefgh"
	sc := NewScrubber(ScrubValues{Marker: "sk_***", Rule: AsWritten, Raw: true, Values: []string{key}},
		ScrubValues{Marker: "REDACTED", Rule: AnySpelling, TextOnly: true, Values: []string{key + "/proxy-tail-0123"}})
	in := `{"code":"X","message":"bad ` + key + `/proxy-tail-0123 end"}`
	want := `{"code":"X","message":"bad sk_*** end"}`
	if got := sc.ScrubRaw(in); got != want {
		t.Errorf("ScrubRaw = %s, want %s", got, want)
	}
}

// A short request secret glued to a Raw match, before or after it, was
// found because that neighbour is a match; it goes with it, since once
// the Raw match alone is replaced the secret stands glued to a marker (a
// word byte on either side: "PIN9sk_***", "REDACTEDPIN9") and the decoded
// text's Scrub no longer finds it. One glued to nothing but a word is
// still left, and other values' matches that only touch the Raw one wait
// for the decoded text.
func TestScrubberScrubRawShortSecretTouchingRaw(t *testing.T) {
	const key, url = "sk_live_KEY12345", "https://up.example/obj"
	sc := NewScrubber(ScrubValues{Marker: "sk_***", Rule: AsWritten, Raw: true, Values: []string{key}},
		ScrubValues{Marker: "REDACTED", Rule: AsWritten, Raw: true, Values: []string{url}},
		ScrubValues{Marker: "[R]", Rule: RequestSecret, Values: []string{"PIN9"}},
		ScrubValues{Marker: "H", Rule: AnySpelling, Values: []string{"header-value-1"}})
	for in, want := range map[string]string{
		`{"m":"a PIN9` + key + ` b"}`:              `{"m":"a [R] b"}`,
		`{"m":"a ` + key + `PIN9 b"}`:              `{"m":"a sk_*** b"}`,
		`{"m":"a ` + url + `PIN9 b"}`:              `{"m":"a REDACTED b"}`,
		`{"m":"a PIN9` + url + ` b"}`:              `{"m":"a [R] b"}`,
		`{"m":"a xPIN9` + key + ` b"}`:             `{"m":"a xPIN9sk_*** b"}`,
		`{"m":"a header-value-1` + key + ` b"}`:    `{"m":"a header-value-1sk_*** b"}`,
		`{"m":"PIN9","k":"` + key + `"}`:           `{"m":"PIN9","k":"sk_***"}`,
		`{"m":"a PIN9` + key + `PIN9` + key + `"}`: `{"m":"a [R]sk_***"}`,
	} {
		if got := sc.ScrubRaw(in); got != want {
			t.Errorf("ScrubRaw(%s) = %s, want %s", in, got, want)
		}
	}
}

// midEscape tells the middle of an escape from its edges, an escaped
// backslash from one that starts an escape.
func TestMidEscape(t *testing.T) {
	for _, c := range []struct {
		s    string
		i    int
		want bool
	}{
		{`a\nb`, 2, true}, {`a\nb`, 1, false}, {`a\nb`, 3, false},
		{`a\u0041b`, 3, true}, {`a\u0041b`, 6, true}, {`a\u0041b`, 7, false},
		{`a\\b`, 3, false}, {`a\\\nb`, 4, true}, {`a\\\nb`, 5, false}, {`a\`, 2, true},
	} {
		if got := midEscape(c.s, c.i); got != c.want {
			t.Errorf("midEscape(%q, %d) = %v, want %v", c.s, c.i, got, c.want)
		}
	}
}
