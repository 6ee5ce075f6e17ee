package wire

import (
	"strings"
	"testing"
)

func TestRedactSecretQuery(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"https://r.example/tunnels/t1/mcp", "https://r.example/tunnels/t1/mcp"},
		{"https://r.example/tunnels/t1/mcp?k=S3CRET&x=1", "https://r.example/tunnels/t1/mcp?k=REDACTED&x=1"},
		{"https://r.example/tunnels/t1/mcp?%6B=S3CRET", "https://r.example/tunnels/t1/mcp?%6B=REDACTED"},
		// The rest of the query as written: order, escapes, bare flags.
		{"https://r.example/mcp?y=1&k=S3CRET&x=a%20b&flag", "https://r.example/mcp?y=1&k=REDACTED&x=a%20b&flag"},
		{"https://r.example/mcp?k=S3CRET&k=S3CRET2", "https://r.example/mcp?k=REDACTED&k=REDACTED"},
		// Pairs Go's query parser refuses may hold a secret for another
		// reader: the whole query goes.
		{"https://r.example/mcp?x=1;k=S3CRET", "https://r.example/mcp?REDACTED"},
		{"https://r.example/mcp?k=S3CRET;", "https://r.example/mcp?REDACTED"},
		{"https://r.example/mcp?k=S3CRET%zz", "https://r.example/mcp?REDACTED"},
		{"http://[::1/mcp?k=S3CRET", "[unparsable URL redacted]"},
		// A userinfo password is a secret too; a user name alone is not.
		{"https://alice:S3CRET@r.example/mcp", "https://alice:REDACTED@r.example/mcp"},
		{"https://alice@r.example/mcp?x=1", "https://alice@r.example/mcp?x=1"},
		{"https://alice:S3CRET@r.example/mcp?k=S3CRET", "https://alice:REDACTED@r.example/mcp?k=REDACTED"},
		// Shown text redacts K as well: a reader may not tell it from k.
		{"https://r.example/mcp?a=1&K=S3CRET", "https://r.example/mcp?a=1&K=REDACTED"},
		{"https://r.example/mcp?%6b=S3CRET", "https://r.example/mcp?%6b=REDACTED"},
	} {
		got := RedactSecretQuery(tt.in)
		if got != tt.want || strings.Contains(got, "S3CRET") {
			t.Errorf("RedactSecretQuery(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// IsSecretParam is what the relay accepts (k only); display redaction
// reads K too.
func TestIsSecretParamIsLowercaseK(t *testing.T) {
	for name, want := range map[string]bool{"k": true, "%6B": true, "%6b": true, "K": false, "%4B": false, "kk": false} {
		if got := IsSecretParam(name); got != want {
			t.Errorf("IsSecretParam(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestRedactSecretParams(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":                            "plain text",
		"see https://h/p?k=abc123 for more":     "see https://h/p?k=REDACTED for more",
		`"url":"https://h/p?a=1&k=abc&b=2"`:     `"url":"https://h/p?a=1&k=REDACTED&b=2"`,
		"https://h/p?K=abc#frag":                "https://h/p?K=REDACTED#frag",
		"(https://h/p?k=abc)":                   "(https://h/p?k=REDACTED)",
		"already ?k=REDACTED":                   "already ?k=REDACTED",
		"a k=v pair that is no query: k=secret": "a k=v pair that is no query: k=secret",
		"ends with ?k=":                         "ends with ?k=",
	} {
		if got := RedactSecretParams(in); got != want {
			t.Errorf("RedactSecretParams(%q) = %q, want %q", in, got, want)
		}
	}
}

// The k parameter in the other spellings text quoting a URL carries: the
// name percent-encoded (the edge reads %6B as k), a JSON document's
// escaped '&', a URL inside another URL's query, an HTML page's &amp;
// (or its character references &#38; and &#x26;), escaped again
// (&amp;amp;), a JSON-escaped '?', and ';', which some query parsers read
// as '&', after values of any bytes RFC 3986 allows in a query (' ( ).
func TestRedactSecretParamsSpellings(t *testing.T) {
	const secret = "tunnelsecret123"
	for name, in := range map[string]string{
		"percent-encoded name":        "https://h/p?%6B=" + secret,
		"percent-encoded name lower":  "https://h/p?a=1&%6b=" + secret,
		"JSON-escaped ampersand":      `{"error":"GET https://h/p?a=1\u0026k=` + secret + `\u0026b=2"}`,
		"URL-encoded URL":             "https://edge/x?target=https%3A%2F%2Fh%2Fp%3Fk%3D" + secret,
		"URL-encoded URL &":           "https://edge/x?target=https%3A%2F%2Fh%2Fp%3Fa%3D1%26k%3D" + secret + "%26b%3D2",
		"HTML-escaped ampersand":      `<a href="https://h/p?a=1&amp;k=` + secret + `">`,
		"HTML decimal reference":      `<a href="https://h/p?a=1&#38;k=` + secret + `&#38;b=2">`,
		"HTML hex reference":          `<a href="https://h/p?a=1&#x26;k=` + secret + `">`,
		"HTML hex reference upper":    `<a href="https://h/p?a=1&#X26;k=` + secret + `">`,
		"doubly HTML-escaped":         `<a href="https://h/p?a=1&amp;amp;k=` + secret + `&amp;amp;b=2">`,
		"HTML reference, zeros":       `<a href="https://h/p?a=1&#038;k=` + secret + `">`,
		"HTML-escaped upper case":     `<a href="https://h/p?a=1&AMP;k=` + secret + `">`,
		"JSON-escaped question mark":  `{"u":"https://h/p\u003fk=` + secret + `"}`,
		"JSON-escaped upper case":     `{"u":"https://h/p?a=1\u0026K=` + secret + `"}`,
		"semicolon separator":         "https://h/p?a=1;k=" + secret,
		"percent-encoded semicolon":   "https://edge/x?t=https%3A%2F%2Fh%2Fp%3Fa%3D1%3Bk%3D" + secret,
		"percent-encoded K":           "https://h/p?%4B=" + secret,
		"percent-encoded name, %3d":   "https://edge/x?t=https%3A%2F%2Fh%2Fp%3F%6B%3D" + secret,
		"URL-encoded twice":           "https://x/login?next=https%3A%2F%2Fr%2Fmcp%253Fk%253D" + secret,
		"URL-encoded twice &":         "https://x/login?next=https%3A%2F%2Fr%2Fmcp%253Fa%253D1%2526k%253D" + secret + "%2526b%253D2",
		"URL-encoded twice ;":         "https://x/login?next=https%3A%2F%2Fr%2Fmcp%253Fa%253D1%253Bk%253D" + secret,
		"URL-encoded twice, name":     "https://x/login?next=https%3A%2F%2Fr%2Fmcp%253F%256B%253D" + secret,
		"semicolon after two parts":   "https://h/p?a=1;b=x:y/z;k=" + secret,
		"semicolon after &amp;":       `<a href="https://h/p?x=0&amp;a=1;k=` + secret + `">`,
		"JSON-escaped semicolon":      `{"u":"https://h/p?a=1\u003bk=` + secret + `"}`,
		"semicolon after parentheses": "https://h/p?q=f(x);k=" + secret,
		"semicolon after quotes":      "https://h/p?a=1&b='x';k=" + secret,
		"semicolon after both":        "https://h/p?q=('a',b);c=1;k=" + secret,
	} {
		got := RedactSecretParams(in)
		if strings.Contains(got, secret) || !strings.Contains(got, "REDACTED") {
			t.Errorf("%s: RedactSecretParams(%q) = %q", name, in, got)
		}
		if strings.Contains(in, "b=2") || strings.Contains(in, "b%3D2") {
			if !strings.Contains(got, "b=2") && !strings.Contains(got, "b%3D2") {
				t.Errorf("%s: the parameter after the secret was taken too: %q", name, got)
			}
		}
	}
}

// SecretScrubber takes a request's own secret values out of error text,
// as written and as JSON escapes them, and credentials named by their
// field; it leaves short values, which would mangle the text, to the
// field rule.
func TestSecretScrubber(t *testing.T) {
	scrub := SecretScrubber("", "a", "S3CRET-VALUE-1", `S3CRET<"&>`)
	in := `bad body {"x":"S3CRET-VALUE-1","y":"S3CRET\u003c\"\u0026\u003e","clientSecret":"shh","a":"https://r/t?k=S3CRET2"} clientInformation`
	got := scrub(in)
	if strings.Contains(got, "S3CRET") || strings.Contains(got, "shh") || !strings.Contains(got, "clientInformation") {
		t.Errorf("scrub(%s) = %s", in, got)
	}
}

// ';' separates a query's parts (some parsers read it as '&'), but code
// has it after an assignment too: there it is no separator, and what
// follows k= is not redacted. A ';' is read as one in a query only: after
// a part name=value that follows a '?' or '&' (however spelled).
func TestSecretParamAtSemicolonInCodeIsNoSeparator(t *testing.T) {
	for _, in := range []string{
		"for(i=0;k=compute(x);k++) {",
		"minified: var a=1;k=function(b){return b};",
		"x=c?1:2;k=next(x)",
		"a&&b=1;k=next(x)",
		"a=1%3Bk%3Dnext(x)",
		`{"src":"var a=1\u003bk=function(b){}"}`,
		"?flag;k=abcdefgh", // a part that is no name=value
		"(k=1);k=abcdefgh",
		"c?for(i=0;j=n;k=compute(x);k++) {", // '(' in a name (i's part), after a '?'
		"?a=1;f(i=0;b=2;k=abcdefgh",
		"&x'y=1;b=2;k=abcdefgh",
	} {
		for i := range len(in) {
			if j, ok := SecretParamAt(in, i); ok {
				t.Errorf("SecretParamAt(%q, %d) = %d: code read as a k parameter", in, i, j)
			}
		}
		if got := RedactSecretParams(in); got != in {
			t.Errorf("RedactSecretParams(%q) = %q", in, got)
		}
	}
	for in, sep := range map[string]string{"?a=1;k=": ";", "&a=1;k=": ";", "%3Fa%3D1%3Bk%3D": "%3B", "&amp;a=1;k=": ";", "?a=1;b=2;k=": ";"} {
		if _, ok := SecretParamAt(in, strings.LastIndex(in, sep)); !ok {
			t.Errorf("SecretParamAt(%q) at its last %q: not a k parameter", in, sep)
		}
	}
}
