package wire

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// A secret under two layers of encoding is taken out: a URL holding it,
// itself a query value (%252F), percent-encoded JSON (%5C%2F), a JSON dump
// in a JSON string (\\/). Undoing the layers must not give it back.
func TestSecretScrubberTwoLayerSpellings(t *testing.T) {
	const at = "AT/secret+value==xyz9"
	scrub := SecretScrubber(at)
	inner := "https://mcp.example/sse?token=" + url.QueryEscape(at)
	jsonDump := func(s string) string { b, _ := json.Marshal(s); return string(b[1 : len(b)-1]) }
	for name, c := range map[string]struct {
		in     string
		decode func(string) string
	}{
		"double percent-encoding (URL inside a query value)": {
			in: "redirect failed: https://login.example/authorize?next=" + url.QueryEscape(inner),
			decode: func(s string) string {
				s, _ = url.QueryUnescape(s)
				s, _ = url.QueryUnescape(s)
				return s
			},
		},
		"percent-encoded JSON escape (JSON with \\/ in a query value)": {
			in: "bad state: https://app.example/cb?state=" + url.QueryEscape(`{"token":"`+strings.ReplaceAll(at, "/", `\/`)+`"}`),
			decode: func(s string) string {
				s, _ = url.QueryUnescape(s)
				return strings.ReplaceAll(s, `\/`, "/")
			},
		},
		"JSON string holding a JSON dump (\\\\/)": {
			in: "config: " + jsonDump(`{"token":"`+strings.ReplaceAll(at, "/", `\/`)+`"}`),
			decode: func(s string) string {
				var x string
				_ = json.Unmarshal([]byte(`"`+s[len("config: "):]+`"`), &x)
				return strings.ReplaceAll(x, `\/`, "/")
			},
		},
	} {
		got := scrub(c.in)
		if d := c.decode(got); strings.Contains(d, at) {
			t.Errorf("%s: scrub(%q) = %q, which decodes to %q: the token is still there", name, c.in, got, d)
		}
	}
}
