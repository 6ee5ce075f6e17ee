package wire

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// rawEdges are what FuzzScrubRawEnvelope writes next to a planted secret:
// quotes, backslashes and escapes on either side of it, as JSON then
// escapes them again.
var rawEdges = []string{"", `"`, `\`, `\"`, "\n", "é", "%", "/", "u0022", `\u0022`, " "}

// FuzzScrubRawEnvelope checks ScrubRaw on error envelopes as the
// transport cleans them: a key (Raw, as written and as its path and query
// escapes) and credential header values (any spelling, not Raw), among
// them the key in quotes, the key with a prefix and a value of their own.
// A secret is planted in the message and in a detail's value, in one of
// insideSpellings, with quotes, backslashes or escapes before and after
// it; a header value is a details key. The properties: the output is
// valid JSON; its code and details keys are what they were (neither holds
// the key); and once decoded and cleaned by Scrub, no message or detail
// value keeps minSurvivor consecutive bytes of any secret.
func FuzzScrubRawEnvelope(f *testing.F) {
	for shape := range insideSpellings {
		f.Add("sk_live_0123456789", "proxy/token+0123", "VALIDATION_ERROR", uint8(shape), uint8(0), uint8(1), uint8(1))
		f.Add("sk_live_0123456789", "proxy/token+0123", "NOT_FOUND", uint8(shape), uint8(1), uint8(3), uint8(3))
		f.Add("sk_live_0123456789", "proxy/token+0123", "E", uint8(shape), uint8(2), uint8(8), uint8(9))
	}
	f.Fuzz(func(t *testing.T, rawKey, rawOther, code string, shape, which, pre, post uint8) {
		key, other := fuzzSecret(rawKey), fuzzSecret(rawOther)
		headers := []string{`"` + key + `"`, "tok/" + key, other}
		sc := NewScrubber(
			ScrubValues{Marker: "sk_***", Rule: AsWritten, Raw: true, Values: []string{key, url.PathEscape(key), url.QueryEscape(key)}},
			ScrubValues{Marker: "REDACTED", Rule: AnySpelling, Values: headers},
		)
		secrets := append([]string{key}, headers...)
		secret := secrets[int(which)%len(secrets)]
		spell := insideSpellings[int(shape)%len(insideSpellings)]
		if secret == key { // the key is found as written and as a URL escapes it only
			spell = []func(string) string{func(v string) string { return v }, url.PathEscape, url.QueryEscape}[int(shape)%3]
		}
		planted := rawEdges[int(pre)%len(rawEdges)] + spell(secret) + rawEdges[int(post)%len(rawEdges)]
		code = strings.Map(func(r rune) rune {
			if r >= 'A' && r <= 'Z' || r == '_' {
				return r
			}
			return -1
		}, code)
		body, err := json.Marshal(map[string]any{"code": code, "message": "bad " + planted + " end",
			"details": map[string]any{"got": []any{planted}, other: "header value as a key"}})
		if err != nil {
			t.Fatal(err)
		}
		in := string(body)
		out := sc.ScrubRaw(in)
		var got struct {
			Code    string         `json:"code"`
			Message string         `json:"message"`
			Details map[string]any `json:"details"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("ScrubRaw(%s) = %s: not JSON: %v", in, out, err)
		}
		if !strings.Contains(code, key) && got.Code != code {
			t.Errorf("ScrubRaw(%s) = %s: code %q, want %q", in, out, got.Code, code)
		}
		if enc, _ := json.Marshal(other); !strings.Contains(string(enc), key) && got.Details[other] == nil {
			t.Errorf("ScrubRaw(%s) = %s: details key %q rewritten", in, out, other)
		}
		shown := []string{got.Message}
		for _, v := range got.Details {
			if l, ok := v.([]any); ok {
				for _, x := range l {
					s, _ := x.(string)
					shown = append(shown, s)
				}
			}
		}
		for _, text := range shown {
			text = sc.Scrub(text)
			for _, piece := range strings.Split(strings.ReplaceAll(text, "sk_***", "REDACTED"), "REDACTED") {
				for _, s := range secrets {
					if run := survivor(piece, s); run != "" {
						t.Fatalf("ScrubRaw(%s) = %s: shown %q keeps %q of %q", in, out, text, run, s)
					}
				}
			}
		}
	})
}
