package wire

import (
	"strings"
	"testing"
)

// BenchmarkSecretScrubber measures the scrub a relayed MCP error goes
// through: a saved server's handful of secrets, long and short, against a
// short message and a 4 KiB one that quotes none of them; and a 4 KiB
// one with percent and JSON escapes, which takes the encoded walk
// (encodedWalk) as well.
func BenchmarkSecretScrubber(b *testing.B) {
	secrets := []string{"S3CRET-env-value-9f8e", "Bearer S3CRET-bearer-1234", "730451", "k-91x7", "8080", "dev"}
	short := "MCP error -32603: upstream refused the request for tool launch (see server log line 42)"
	long := strings.Repeat("tool launch failed at step 17: the upstream answered 503 Service Unavailable; ", 55)
	escaped := strings.Repeat(`GET /cb?state=a%2Fb%3D failed: {\"error\":\"upstream 503\"}; `, 55)
	for _, c := range []struct{ name, msg string }{{"short", short}, {"4KiB", long}, {"4KiB-escaped", escaped}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = SecretScrubber(secrets...)(c.msg)
			}
		})
	}
}

// BenchmarkSecretScrubberWorstCase measures the encoded pass on the inputs
// that cost it most: a secret of ambiguous characters ('\' spelled as
// itself, "\\" or under two layers) against text of nothing but them,
// where every position starts a spelling and each reaches many ends. The
// secret's last character never comes (but in the %5C run), so the walk
// holds every state (character, position) the text spells, each once.
func BenchmarkSecretScrubberWorstCase(b *testing.B) {
	bs := func(n int) string { return strings.Repeat(`\`, n) }
	for _, c := range []struct{ name, secret, text string }{
		{"bs8-in-bs-64KiB", bs(8) + "Z", bs(64 << 10)},
		{"bs16-in-bs-16KiB", bs(16) + "Z", bs(16 << 10)},
		{"bs64-in-bs-2KiB", bs(64) + "Z", bs(2 << 10)},
		{"bsquote128-in-bsbsbsquote-32KiB", strings.Repeat(`\"`, 128) + "Z", strings.Repeat(`\\\"`, 8<<10)},
		{"bs16-in-pct5C-64KiB", bs(16) + "Z", strings.Repeat(`%5C`, 22000)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = SecretScrubber(c.secret)(c.text)
			}
		})
	}
}

// BenchmarkSecretScrubberManyDetails measures what apierr.Redact does to
// a 60 KiB error whose details are short strings, each with a '%' (so
// each takes the encoded pass) and the letters a request's 2.3 KB token
// (a JWT, "eyJ...") may begin with: one scrub call per string, each
// walking a few characters of the token at most.
func BenchmarkSecretScrubberManyDetails(b *testing.B) {
	scrub := SecretScrubber(jwtLike(2300))
	details := manyDetails(60 << 10)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range details {
			_ = scrub(d)
		}
	}
}

// jwtLike is a token of at least n bytes in a JWT's spelling, "eyJ...".
func jwtLike(n int) string {
	var sb strings.Builder
	for sb.Len() < n {
		sb.WriteString("eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9")
	}
	return sb.String()
}

// manyDetails is the short detail strings of an error body of about n
// bytes, each with a '%' and every lower-case letter.
func manyDetails(n int) []string {
	var out []string
	for body := 0; body < n; {
		s := "bad % value: abcdefghijklmnopqrstuvwxyz"
		out = append(out, s)
		body += len(s) + 3
	}
	return out
}

// BenchmarkAnySpelling measures a credential header's scrubber (the
// AnySpelling rule) on error text that quotes none of its values: a short
// message, and a 4 KiB one with percent and JSON escapes, which takes the
// encoded walk.
//
//	go test -run '^$' -bench AnySpelling -benchmem ./internal/wire
func BenchmarkAnySpelling(b *testing.B) {
	scrub := anySpelling("REDACTED", "proxy/token+0123456789", "Bearer S3CRET-bearer-1234", "S3CRET-bearer-1234")
	short := "MCP error -32603: upstream refused the request for tool launch (see server log line 42)"
	escaped := strings.Repeat(`GET /cb?state=a%2Fb%3D failed: {\"error\":\"upstream 503\"}; `, 55)
	for _, c := range []struct{ name, msg string }{{"short", short}, {"4KiB-escaped", escaped}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = scrub(c.msg)
			}
		})
	}
}

// BenchmarkScrubberKeyEchoes measures an error body (64 KiB) a server
// filled with echoes of the key, given as transport's keyScrubber gives
// it (the key, its path and its query escape: one string), beside two
// header values: thousands of matches to order and replace.
func BenchmarkScrubberKeyEchoes(b *testing.B) {
	const key = "sk_live_abcdefgh"
	sc := NewScrubber(ScrubValues{Marker: "sk_***", Rule: AsWritten, Raw: true, Values: []string{key, key, key}},
		ScrubValues{Marker: "REDACTED", Rule: AnySpelling, Values: []string{"proxy/token+0123456789", "tok-0123456789"}})
	s := strings.Repeat(key+" tok-0123456789 ", (64<<10)/(len(key)+16))
	b.ReportAllocs()
	for b.Loop() {
		_ = sc.Scrub(s)
	}
}
