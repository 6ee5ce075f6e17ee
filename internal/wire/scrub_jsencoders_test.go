package wire

import (
	"encoding/json"
	"net/url"
	"os"
	"strings"
	"testing"
)

// jsSpellings is testdata/js_spellings.json: secrets as Node 20's
// encodeURIComponent, encodeURI, URLSearchParams and JSON.stringify wrote
// them, one layer and two (each over another or over one of Go's
// encoders), by name ("encodeURI(QueryEscape)" is encodeURI over
// QueryEscape). testdata/gen_js_spellings.go writes it.
type jsSpellings []struct {
	Secret    string            `json:"secret"`
	Spellings map[string]string `json:"spellings"`
}

// goEncoders are Go's encoders, for a second layer over a JavaScript one.
var goEncoders = map[string]func(string) string{
	"QueryEscape": url.QueryEscape,
	"PathEscape":  url.PathEscape,
	"json.Marshal": func(s string) string {
		b, _ := json.Marshal(s)
		return string(b[1 : len(b)-1])
	},
}

// The service is JavaScript: a secret it or a JavaScript client quotes is
// spelt by JavaScript's encoders, which leave other characters raw than
// Go's ('@' is %40 in encodeURIComponent but raw in PathEscape, '~' is
// %7E in URLSearchParams, '<' and '&' are raw in JSON.stringify). Every
// such spelling is taken out whole, one layer deep and, for a secret of
// minScrubbed bytes or more, two: JavaScript over JavaScript, JavaScript
// over Go, and Go over JavaScript.
func TestSecretScrubberJSSpellings(t *testing.T) {
	b, err := os.ReadFile("testdata/js_spellings.json")
	if err != nil {
		t.Fatal(err)
	}
	var table jsSpellings
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	if len(table) < 30 {
		t.Fatalf("testdata holds %d secrets, want 30 or more", len(table))
	}
	for _, row := range table {
		v, sp := row.Secret, row.Spellings
		if len(v) >= minScrubbed {
			for name, s := range row.Spellings {
				if strings.Contains(name, "(") {
					continue
				}
				for gn, g := range goEncoders {
					sp[gn+"("+name+")"] = g(s)
				}
			}
		}
		scrub := SecretScrubber(v)
		for name, s := range sp {
			if len(v) < minScrubbed && strings.Contains(name, "(") {
				continue // a short value is taken out under one layer only
			}
			in := "error: " + s + " end"
			if got := scrub(in); got != "error: [REDACTED] end" {
				t.Errorf("secret %q spelt %s (%q): scrub = %q", v, name, s, got)
			}
		}
	}
}

// The spellings the differential audit against Node 20 found surviving,
// each under two layers whose first is JavaScript's.
func TestSecretScrubberJSTwoLayerExamples(t *testing.T) {
	for _, c := range []struct{ secret, how, spelt, want string }{
		{"pass(word@x", "encodeURIComponent(encodeURIComponent(s))", "pass(word%2540x", "[REDACTED]"},
		{"~abcdefgh", "URLSearchParams twice", "%257Eabcdefgh", "[REDACTED]"},
		{`p&ss"word1`, "encodeURIComponent(JSON.stringify(s))", `p%26ss%5C%22word1`, "[REDACTED]"},
		{`a<b"cdefg`, "JSON.stringify(JSON.stringify(s))", `\"a<b\\\"cdefg\"`, `\"[REDACTED]\"`},
	} {
		in := "redirect failed: next=" + c.spelt + " end"
		if got, want := SecretScrubber(c.secret)(in), "redirect failed: next="+c.want+" end"; got != want {
			t.Errorf("secret %q spelt as %s (%q): scrub(%q) = %q, want %q", c.secret, c.how, c.spelt, in, got, want)
		}
	}
}
