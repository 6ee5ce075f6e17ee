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
