package ingest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// The header-text redactor is linear in its input. It once ran a regexp to
// the end of the line from every header name, names inside a value already
// redacted included: one long line (a minified widget page, a JSON dump in
// an error) took seconds at 64 KiB and minutes at 256 KiB. Values whose
// bracket or quote never closes, one per line, are the other way to make
// each name read the rest of the text; widget HTML's forms (header cells,
// values on a later line, lines of tags that show nothing between a name
// and its value) must not make one either. A header cell is
// found in widget HTML only.
func TestRedactHeadersLinear(t *testing.T) {
	t.Parallel()
	rd := redactor{}
	for _, tc := range linearCases {
		page := linearPage(tc.unit, tc.goTestFile, tc.size)
		for mode, f := range map[string]func(string) []byte{"html": rd.html, "text": rd.text} {
			out := f(page) // its cost is BenchmarkRedactHeadersLinear's: a test asserts no time
			if strings.Contains(string(out), "a=1") && (mode == "html" || !strings.HasPrefix(tc.unit, "<th>")) {
				t.Errorf("%s: %s: a value survived", tc.name, mode)
			}
		}
	}
}

// BenchmarkRedactHeadersLinear redacts each adversarial page at 64 KiB and
// 256 KiB: linear, the time per byte is the same at both sizes (quadratic,
// 64 KiB took seconds and 256 KiB minutes).
//
//	go test -run '^$' -bench RedactHeadersLinear ./ingest
func BenchmarkRedactHeadersLinear(b *testing.B) {
	rd := redactor{}
	for _, tc := range linearCases {
		for _, size := range []int{64 << 10, 256 << 10} {
			page := linearPage(tc.unit, tc.goTestFile, size)
			b.Run(fmt.Sprintf("%s/%dKiB", tc.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(page)))
				for b.Loop() {
					rd.html(page)
					rd.text(page)
				}
			})
		}
	}
}

// linearCases are pages that once made the redactor quadratic.
var linearCases = []struct {
	name, unit string
	size       int
	goTestFile string // when set, the page goes on with a go test log line whose file name repeats it to size
}{
	{"one line", "<p>Cookie: a=1</p>", 256 << 10, ""},
	{"one line of names", "x-api-key=authorization:", 256 << 10, ""},
	{"unclosed brackets", "Cookie: [a\n", 256 << 10, ""},
	{"unclosed %#v", "Cookie: []string{a\n", 256 << 10, ""},
	{"unclosed quotes", "X-Api-Key: \"a\nApi-Key: 'b\n", 256 << 10, ""},
	{"unclosed header cells", "<th>Cookie</th><td>a=1", 256 << 10, ""},
	{"names in markup, values on no line", "<b>Cookie</b>:\n\n", 256 << 10, ""},
	{"schemes, blank lines", "Authorization: Basic\n\n", 256 << 10, ""},
	// A name in a tag on every line: each value shows nothing, so it
	// may go on on a later line, and every name once read the rest of
	// the page looking for one.
	{"names in tags, lines that show nothing", "<x cookie=<y>\n", 256 << 10, ""},
	{"names in comments, lines that show nothing", "<!-- Authorization: <!---->\n", 256 << 10, ""},
	// Folded lines (obs-fold) continue a value, and a name on each.
	{"folded lines with names", "Authorization: x\n Cookie: a=1\n", 256 << 10, ""},
	{"folded lines", "Cookie: a=1\r\n\t", 256 << 10, ""},
	// One line of names whose values all end at its end, then a long line
	// shaped like go test's: each name once read that line again.
	{"one line of names, then a long go test line", "x-api-key=authorization:", 256 << 10, "a"},
	// Tokens written with \u escapes are compared decoded: one that runs
	// the whole page, and many, each an sk_ token.
	{"escaped word characters, one token", `sk\u005fa\u005f`, 256 << 10, ""},
	{"escaped word characters, many tokens", `Cookie: a=1 sk\u005fabcdefgh `, 256 << 10, ""},
	// Closed values followed by more run to the end of their line, with
	// a name in each; and Go's map spelling, whose values end at the
	// next key.
	{"closed values followed by more", `Cookie: [a=1] x Cookie: "a=1" y `, 256 << 10, ""},
	{"map values", `map[Cookie:[a=1] Cookie:["a=1"] `, 256 << 10, ""},
	// Closed values followed by quotes, each read to see whether it
	// closes an enclosing string.
	{"closed values followed by quotes", `Cookie: 'a' " \" Cookie: "a" ' `, 256 << 10, ""},
	// snake_case runs where every "_sk_" and "_bearer_" is a candidate
	// the '_' rule rejects (no uppercase letter, digit or '-' in sk_'s tail, none in bearer's), written and with escapes.
	{"snake_case sk_ and bearer candidates", `x_sk_abcdefgh-sk_bearer_abcdefghijklmnop_`, 256 << 10, ""},
	{"escaped snake_case candidates", `x\u005fsk_abcdefgh-sk\u005fbearer_abcdefghijklmnop_`, 256 << 10, ""},
}

// linearPage is tc's adversarial page at size bytes.
func linearPage(unit, goTestFile string, size int) string {
	page := strings.Repeat(unit, size/len(unit))
	if goTestFile != "" {
		page += "\n    " + strings.Repeat(goTestFile, size/len(goTestFile)) + ".go:1: the real failure\n"
	}
	return page
}

// The regexps headerNames and headerValue replace (headerValue runs an
// unclosed []string{ to the end of the line, where the regexp took "[]";
// X-Auth-Token's name takes '_' or nothing between its words as well).
var (
	reHeaderName  = regexp.MustCompile(`(?i)(?:proxy-)?authorization|(?:set-)?cookie|(?:x-)?api[-_]?key|x[-_]?auth[-_]?token`)
	reHeaderValue = regexp.MustCompile(`^(?:["']?[ \t]*[:=]|"[ \t]*,[ \t]*"value"[ \t]*:)[ \t]*(\[\]string\{[^}]*\}|\[[^\]]*\]|"[^"]*"|'[^']*'|[^\r\n]*)`)
)

// headerNames and headerValue find what the regexps found.
func FuzzHeaderNamesMatchRegexp(f *testing.F) {
	for _, s := range []string{"Authorization: Bearer x", "proxy-AUTHORIZATION:a\nb", "set-cookie=1; x-api_key: 'v'", "X-Auth-Token, apikey",
		`{"name":"api-key", "value": ["a"]}`, `http.Header{"Cookie":[]string{"v"}}`, "map[Cookie:[a b]]", `x-x-apikey:"v`, "cookie: []string{a",
		"authorizationcookieapikey:\r\nx", "\u212aookie: v", "api-_key: v"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\u017f\u212a") {
			return // the regexp folds these to s and k; headers are ASCII
		}
		want := reHeaderName.FindAllStringIndex(s, -1)
		got := headerNames(s)
		if len(got) != len(want) {
			t.Fatalf("%q: names %v, want %v", s, got, want)
		}
		sc := newValueScanner(s)
		for i, m := range want {
			if got[i][0] != m[0] || got[i][1] != m[1] {
				t.Fatalf("%q: names %v, want %v", s, got, want)
			}
			vs, ve := sc.headerValue(m[1])
			v := reHeaderValue.FindStringSubmatchIndex(s[m[1]:])
			if v == nil || v[2] == v[3] {
				if vs != ve {
					t.Fatalf("%q: value after %v is %q, want none", s, m, s[vs:ve])
				}
				continue
			}
			ws, we := m[1]+v[2], m[1]+v[3]
			if vs != ws || (ve != we && !(s[ws:we] == "[]" && strings.HasPrefix(s[vs:], "[]string{") && ve > we)) {
				t.Fatalf("%q: value after %v is %q, want %q", s, m, s[vs:ve], s[ws:we])
			}
		}
	})
}

// wrapped remembers the lines it read: a name on any of them, or before
// them, still finds the value on the first line after them that shows
// something.
func TestRedactWrappedRemembersLines(t *testing.T) {
	t.Parallel()
	for _, page := range []string{
		strings.Repeat("<x cookie=<y>\n", 50) + "sid=s3cr3t\n",
		"<b>Cookie</b>:\n" + strings.Repeat("<x cookie=<y>\n\n", 50) + " sid=s3cr3t",
		strings.Repeat("<!-- Authorization: <!---->\n", 3) + "<p>\n" + strings.Repeat("<x cookie=<y>\r\n", 3) + "s3cr3t\n<p>x</p>",
	} {
		if out := string(redactor{}.html(page)); strings.Contains(out, "s3cr3t") {
			t.Errorf("%q: the value survived: %q", page, out)
		}
	}
}
