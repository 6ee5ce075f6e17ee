package wire

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
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

// firstLayerMix spells each character of v as one first-layer encoder or
// another might: as it is, each byte %XX in either hex case, a space as
// '+', a short JSON escape, or \uXXXX in either hex case (one case for
// all of a character's escapes).
func firstLayerMix(v string, rng *rand.Rand) string {
	var b strings.Builder
	for _, r := range v {
		ch := string(r)
		switch rng.IntN(5) {
		case 0:
			b.WriteString(ch)
		case 1:
			format := []string{"%%%02X", "%%%02x"}[rng.IntN(2)] // one case a character, as an encoder writes it
			for _, c := range []byte(ch) {
				fmt.Fprintf(&b, format, c)
			}
		case 2:
			if r == ' ' {
				b.WriteByte('+')
			} else {
				b.WriteString(ch)
			}
		case 3:
			if c := shortEscape(r); c != 0 {
				b.WriteString(`\` + string(c))
			} else {
				b.WriteString(ch)
			}
		case 4:
			b.WriteString(allU(ch, []string{"%04x", "%04X"}[rng.IntN(2)]))
		}
	}
	return b.String()
}

// Under two layers, the first may be any encoder's, or a mixture of them
// character by character (one leaves '@' or '~' or '<' as it is, another
// escapes it, in either hex case); the second is any spelling of that.
func TestSecretScrubberTwoLayerFirstMixed(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	extra := []rune{'é', '€', '😀', '\u2028', '\t', '\n', ' '}
	for range 1000 {
		n := minScrubbed + rng.IntN(14)
		var b strings.Builder
		for range n {
			if rng.IntN(8) == 0 {
				b.WriteRune(extra[rng.IntN(len(extra))])
			} else {
				b.WriteByte(byte(0x20 + rng.IntN(0x7f-0x20)))
			}
		}
		v := b.String()
		first := firstLayerMix(v, rng)
		scrub := SecretScrubber(v)
		for name, s := range spellings(first, rng) {
			in := "error: " + s + " end"
			if got := scrub(in); got != "error: [REDACTED] end" {
				t.Fatalf("secret %q, first layer %q, then %s (%q): scrub = %q", v, first, name, s, got)
			}
		}
	}
}
