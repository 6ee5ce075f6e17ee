package wire

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// A secret quoted in another spelling than its own is still a secret: a
// URL or form body carries it percent-encoded, PHP and other JSON encoders
// write '/' as \/ or any character as \uXXXX. Each is taken out.
func TestSecretScrubberEncodedSpellings(t *testing.T) {
	const at = "AT/secret+value==xyz9"
	scrub := SecretScrubber(at, "k/91", "7304", "my secret value")
	for _, in := range []string{
		"AT%2Fsecret%2Bvalue%3D%3Dxyz9", // QueryEscape
		"AT%2fsecret%2bvalue%3d%3dxyz9", // lower-case hex
		"%41%54%2F%73ecret+value==xyz9", // letters encoded too
		"AT/secret%2Bvalue==xyz9",       // partly encoded
		`AT\/secret+value==xyz9`,        // JSON's escaped solidus
		`AT\u002fsecret+value==xyz9`,    // \u escape
		`AT\u002Fsecret\u002bvalue\u003D=xyz9`,
		`\u0041\u0054\u002f\u0073\u0065\u0063\u0072\u0065\u0074\u002b\u0076\u0061\u006c\u0075\u0065\u003d\u003d\u0078\u0079\u007a\u0039`,
		`AT\/secret%2Bvalue\u003d=xyz9`, // mixed
		"my+secret+value",               // QueryEscape's space
		"my%20secret+value",
	} {
		if got := scrub("rejected " + in + " (see log)"); got != "rejected [REDACTED] (see log)" {
			t.Errorf("scrub(%q) = %q", in, got)
		}
	}
	// Short values go as whole tokens in any spelling too; an escape before
	// one is read as the character it stands for.
	for in, want := range map[string]string{
		"key=k%2F91&x=1":       "key=[REDACTED]&x=1",
		`{"key":"k\/91"}`:      `{"key":"[REDACTED]"}`,
		"pin%3D7304":           "pin%3D[REDACTED]",
		"pin%3d%37304":         "pin%3d[REDACTED]",
		`"line\n7304"`:         `"line\n[REDACTED]"`,
		`"\u003d7304"`:         `"\u003d[REDACTED]"`,
		"order 17304 stays":    "order 17304 stays",
		"order 1%37304 stays":  "order 1%37304 stays", // "17304", decoded
		"order A%37304 stays":  "order A%37304 stays",
		"xk%2F91 stays":        "xk%2F91 stays",
		"k%2F91x stays":        "k%2F91x stays",
		"order %417304 stays?": "order %417304 stays?", // "A7304"
	} {
		if got := scrub(in); got != want {
			t.Errorf("scrub(%q) = %q, want %q", in, got, want)
		}
	}
}

// A '%' or '\' in the secret itself can be read two ways in the text:
// "%25" is the secret's '%' encoded, or a '%' and then "25". The longest
// match wins, so that no tail of the secret stays.
func TestSecretScrubberEncodedAmbiguousEscape(t *testing.T) {
	scrub := SecretScrubber("pct%25done", `back\slash\value`, "a\xffbcdefgh")
	for in, want := range map[string]string{
		"x pct%25done y":              "x [REDACTED] y",
		"x pct%2525done y":            "x [REDACTED] y",
		`x back\\slash\\value y`:      "x [REDACTED] y",
		`x back%5Cslash\u005cvalue y`: "x [REDACTED] y",
		`x a\ufffdbcdefgh y`:          "x [REDACTED] y", // encoding/json's spelling of a byte that is no UTF-8
		"x a%FFbcdefgh y":             "x [REDACTED] y",
	} {
		if got := scrub(in); got != want {
			t.Errorf("scrub(%q) = %q, want %q", in, got, want)
		}
	}
}

// spellings are the ways a text may quote v: as is, as encoding/json
// writes it, with \/ for '/', all \u escapes in either hex case, as
// QueryEscape and PathEscape write it, and a random mixture per character.
func spellings(v string, rng *rand.Rand) map[string]string {
	b, _ := json.Marshal(v)
	goJSON := string(b[1 : len(b)-1])
	sp := map[string]string{
		"raw":           v,
		"encoding/json": goJSON,
		`\/`:            strings.ReplaceAll(goJSON, "/", `\/`),
		`\u lower`:      allU(v, "%04x"),
		`\u upper`:      allU(v, "%04X"),
		"QueryEscape":   url.QueryEscape(v),
		"PathEscape":    url.PathEscape(v),
	}
	var m strings.Builder
	for i := 0; i < len(v); {
		r, size := utf8.DecodeRuneInString(v[i:])
		ch := v[i : i+size]
		i += size
		invalid := r == utf8.RuneError && size == 1
		switch rng.IntN(5) {
		case 0:
			m.WriteString(ch)
		case 1:
			for _, c := range []byte(ch) {
				fmt.Fprintf(&m, []string{"%%%02X", "%%%02x"}[rng.IntN(2)], c)
			}
		case 2:
			if invalid {
				r = utf8.RuneError
			}
			m.WriteString(allU(string(r), []string{"%04x", "%04X"}[rng.IntN(2)]))
		case 3:
			if c := shortEscape(r); c != 0 && !invalid {
				m.WriteString(`\` + string(c))
			} else {
				m.WriteString(ch)
			}
		case 4:
			if r == ' ' {
				m.WriteByte('+')
			} else {
				m.WriteString(ch)
			}
		}
	}
	sp["mixed"] = m.String()
	return sp
}

// allU writes each character of v as a JSON \u escape (a surrogate pair
// past U+FFFF, U+FFFD for a byte that is no UTF-8).
func allU(v, format string) string {
	var b strings.Builder
	for _, r := range v { // range yields U+FFFD for a byte that is no UTF-8
		if r > 0xFFFF {
			r1, r2 := utf16.EncodeRune(r)
			b.WriteString(`\u` + fmt.Sprintf(format, r1) + `\u` + fmt.Sprintf(format, r2))
			continue
		}
		b.WriteString(`\u` + fmt.Sprintf(format, r))
	}
	return b.String()
}

// scrubContexts are where an error text quotes a value: each side is no
// ASCII letter or digit, so a short value stands as a whole token.
var scrubContexts = [][2]string{
	{"rejected ", " (see log)"},
	{`{"error":"bad token `, `"}`},
	{"GET /cb?code=x&t=", "&state=1 failed"},
	{`msg: \"`, `\" refused`},
	{"", ""},
}

// checkSpellingsScrubbed fails t if scrubbing a text that quotes v in one
// of its spellings leaves any of them in.
func checkSpellingsScrubbed(t *testing.T, v string, rng *rand.Rand) {
	t.Helper()
	if len(v) < minTokenScrubbed {
		return
	}
	scrub := SecretScrubber(v)
	sp := spellings(v, rng)
	for _, c := range scrubContexts {
		template := c[0] + "[REDACTED]" + c[1]
		if strings.Contains(template, v) {
			continue // the text around would hold it without any leak
		}
		for name, s := range sp {
			in := c[0] + s + c[1]
			got := scrub(in)
			for other, o := range sp {
				if strings.Contains(got, o) && !strings.Contains(template, o) {
					t.Fatalf("secret %q quoted %s (%q): scrub(%q) = %q still holds it %s (%q)", v, name, s, in, got, other, o)
				}
			}
		}
	}
}

// For random secrets of printable ASCII (/ + = % \ " among them) and some
// non-ASCII characters, long and short, no spelling survives a scrub.
func TestSecretScrubberSpellingsProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	extra := []rune{'é', '€', '😀', '\u2028', '\t', '\n'}
	for range 2000 {
		n := 4 + rng.IntN(20)
		var b strings.Builder
		for range n {
			if rng.IntN(8) == 0 {
				b.WriteRune(extra[rng.IntN(len(extra))])
			} else {
				b.WriteByte(byte(0x20 + rng.IntN(0x7f-0x20)))
			}
		}
		checkSpellingsScrubbed(t, b.String(), rng)
	}
}

// FuzzSecretScrubberSpellings is the property above on any secret; its
// seeds run as a normal test.
func FuzzSecretScrubberSpellings(f *testing.F) {
	for _, s := range []string{"AT/secret+value==xyz9", "k/91", "7304", `a"bc`, "pct%25done", `back\slash`, "a\xffbcdefgh", "my secret value", "ué😀\u2028x", "%%%%", `\\\\`, "++++"} {
		f.Add(s, uint64(1))
	}
	f.Fuzz(func(t *testing.T, v string, seed uint64) {
		if len(v) > 64 {
			return // secrets are short, and the check compares every pair of spellings
		}
		checkSpellingsScrubbed(t, v, rand.New(rand.NewPCG(seed, 0)))
	})
}
