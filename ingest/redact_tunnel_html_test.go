package ingest

import (
	"encoding/json"
	"strings"
	"testing"
)

// A tunnel URL's ?k= secret is redacted when its '&' separator is written
// as HTML or XML escapes it (a page's href, a JUnit attribute): &amp;, the
// character references &#38; and &#x26; (any case, leading zeros), also
// behind JSON's \u0026 as encoding/json writes a Trace. The parameter
// after it is kept.
func TestTunnelSecretHTMLEscapedSeparatorRedacted(t *testing.T) {
	t.Parallel()
	const secret = "TUNNELSECRETAMP777"
	for _, sep := range []string{"&amp;", "&AMP;", "&#38;", "&#038;", "&#x26;", "&#X26;", "&#x0026;"} {
		text := `<a href="http://h/tunnels/t1/api/mcp/adapter-http/srv_1?a=1` + sep + `k=` + secret + sep + `b=2">x</a>`
		if got := string((redactor{}).text(text)); strings.Contains(got, secret) || !strings.Contains(got, sep+"b=2") {
			t.Errorf("%s: text redacted to %s", sep, got)
		}
		if got := string((redactor{}).html(text)); strings.Contains(got, secret) {
			t.Errorf("%s: widget HTML redacted to %s", sep, got)
		}
		// Encoded with encoding/json's HTML escaping, as a Trace keeps it.
		tr, _ := json.Marshal(map[string]string{"page": text})
		b, _ := json.Marshal(Result{CaseTitle: "t", Trace: json.RawMessage(tr)})
		if got := (redactor{}).apply(b); strings.Contains(string(got), secret) || !json.Valid(got) {
			t.Errorf("%s: trace redacted to %s", sep, got)
		}
	}
}

// The reporter's rules (RedactText, RedactJSON, hence spools, uploads and
// the CLI's echo) find a tunnel URL's ?k= secret in every spelling the
// SDK's errors do, as wire.SecretParamAt reads them: the name
// percent-encoded, which the relay reads as k (?%6B=, ?%6b=); the '&'
// escaped twice for HTML (&amp;amp;, HTML in an HTML attribute); a
// JSON-escaped '?' (\u003f, JSON quoted in text); ';' as the separator.
// The parameter after it is kept.
func TestTunnelSecretPercentEncodedNameAndEscapedSeparatorsRedacted(t *testing.T) {
	t.Parallel()
	const secret = "SECRETsecret123"
	var s *Service
	for _, in := range []string{
		"GET https://relay.test/api/mcp/adapter-http/srv?%6B=" + secret,
		"GET https://relay.test/api/mcp/adapter-http/srv?a=1&%6b=" + secret + "&b=2",
		`<a href="https://relay.test/x?a=1&amp;amp;k=` + secret + `&amp;amp;b=2">`,
		`{"url":"https://relay.test/x\u003fk=` + secret + `\u0026b=2"}`,
		"GET https://relay.test/x?a=1;k=" + secret + "&b=2",
		"GET https://edge/x?t=https%3A%2F%2Frelay.test%2Fx%3F%6B%3D" + secret + "%26b%3D2",
	} {
		got := s.RedactText(in)
		if strings.Contains(got, secret) {
			t.Errorf("RedactText(%q) = %q: the ?k= secret is in clear", in, got)
		}
		if strings.Contains(in, "b=2") && !strings.Contains(got, "b=2") {
			t.Errorf("RedactText(%q) = %q: the parameter after the secret was taken", in, got)
		}
		doc := []byte(`{"log":` + string(encodeString(in)) + `}`)
		if got := s.RedactJSON(doc); strings.Contains(string(got), secret) || !json.Valid(got) {
			t.Errorf("RedactJSON(%s) = %s: the ?k= secret is in clear", doc, got)
		}
	}
	// Short values are no secret the service issues: kept.
	if in := "for(i=0;k=x;) ?k=1234567"; s.RedactText(in) != in {
		t.Errorf("RedactText(%q) = %q", in, s.RedactText(in))
	}
}

// A tunnel URL percent-encoded twice (a login page's next= holding a URL
// that holds the tunnel's) keeps its ?k= secret behind %253F, %2526,
// %253B and %253D: the reporter spooled it in clear (found in review).
// The other spellings stay redacted.
func TestTunnelSecretEncodedTwiceRedacted(t *testing.T) {
	t.Parallel()
	const secret = "TUNNELSECRET0123"
	var s *Service
	for _, in := range []string{
		"https://x.test/login?next=https%3A%2F%2Fr.test%2Fmcp%253Fk%253D" + secret,
		"https://x.test/login?next=https%3A%2F%2Fr.test%2Fmcp%253Fa%253D1%2526k%253D" + secret + "%2526b%253D2",
		"https://x.test/login?next=https%3A%2F%2Fr.test%2Fmcp%253Fa%253D1%253Bk%253D" + secret,
		"https://x.test/login?next=https%3A%2F%2Fr.test%2Fmcp%253F%256B%253D" + secret,
		"https://r.test/mcp?%6B%3D" + secret,
		"https://r.test/mcp?a=1&amp;amp;amp;k=" + secret,
		"https://r.test/mcp?k=" + secret + "'",
	} {
		if got := s.RedactText(in); strings.Contains(got, secret) {
			t.Errorf("RedactText(%q) = %q: the ?k= secret is in clear", in, got)
		} else if strings.Contains(in, "b%253D2") && !strings.Contains(got, "b%253D2") {
			t.Errorf("RedactText(%q) = %q: the parameter after the secret was taken", in, got)
		}
		doc := []byte(`{"log":` + string(encodeString(in)) + `}`)
		if got := s.RedactJSON(doc); strings.Contains(string(got), secret) || !json.Valid(got) {
			t.Errorf("RedactJSON(%s) = %s: the ?k= secret is in clear", doc, got)
		}
	}
}

// Code with ';' before k= (a loop, minified JavaScript) is no query: the
// reporter's rules keep it, where ';' read as a separator anywhere made
// "for(i=0;k=compute(x);k++) {" spool and echo as "for(i=0;k=[REDACTED] {"
// (found in review). In a query, ';' still separates (see
// TestTunnelSecretPercentEncodedNameAndEscapedSeparatorsRedacted).
func TestTunnelSecretSemicolonInCodeKept(t *testing.T) {
	t.Parallel()
	var s *Service
	for _, in := range []string{
		"for(i=0;k=compute(x);k++) {",
		"minified: var a=1;k=function(b){return b};",
		"x=c?1:2;k=nextValue(x);",
		`{"src":"var a=1\u003bk=function(b){return b}"}`,
	} {
		if got := s.RedactText(in); got != in {
			t.Errorf("RedactText(%q) = %q", in, got)
		}
		doc := []byte(`{"log":` + string(encodeString(in)) + `}`)
		if got := s.RedactJSON(doc); string(got) != string(doc) {
			t.Errorf("RedactJSON(%s) = %s", doc, got)
		}
	}
}
