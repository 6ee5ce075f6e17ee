package ingest

import (
	"encoding/json"
	"strings"
	"testing"
)

// idempotentSeeds hold a secret for every rule, in the spellings the
// rules read: header lines in every name's spelling, key=value pairs,
// http.Header as Go prints it, JSON keys and name/value pairs, bearer
// tokens, ?k= secrets, URL credentials and sk_ tokens.
var idempotentSeeds = []string{
	"Authorization: Bearer abcdefgh12345678\nnext",
	"Authorization: [REDACTED]",
	"Authorization: [[REDACTED]]]",
	"proxy-authorization:basic Zm9vOmJhcg==",
	"Set-Cookie: a=1; b=\"2\"\nok",
	"X_API_KEY=hunter2hunter2&x=1",
	"GET /x?api_key=hunter2hunter2 HTTP/1.1",
	"map[Api-Key:[hunter2] Content-Type:[application/json]]",
	`http.Header{"Api-Key":[]string{"hunter2"}}`,
	`{"apiKey":"hunter2","x":{"X-Auth-Token":["v2"]}}`,
	`[{"name":"Authorization","value":"Basic Zm9vOmJhcg=="}]`,
	`{"error":"Authorization: [\"[REDACTED]\"]"}`,
	`'Cookie': 'sid=1'`,
	`"cookie": "sid=1" and {"headers":"Authorization: Basic\r\n dXNlcjpodW50ZXIy"}`,
	"Authorization: x;\n y\n    x_test.go:5: next",
	"sent bearer eyJhbGciOiJIUzI1NiJ9.e30.sig!",
	"x\nBearer abcdefgh12345678 \xffBearer abcdefgh12345678 \xffsk_live_ABCDEF12",
	"GET https://h/t/mcp?a=1&k=TUNNELSECRET77&b=2 and %6B=TUNNELSECRET77",
	"dial postgres://admin:s3cret@db:5432/x",
	"A://\xfb@ \xa3sk_000000000",
	"TestX/key_sk_live_ABCDEF1234567890abcdef key sk_live_ABCDEF12 Authorization: sk_live_ABCDEF12",
	`{"k":"sk\u005flive_ABCDEF1234567890"}`,
	`Authorization: ["[REDACTED]"] Basic hunter2hunter2`,
	"map[Authorization:[[REDACTED]] Other:[y]] authorization=\"x\" user=bob",
	"TestX/token_Bearer_eyJhbGciOiJIUzI1NiJ9.e30.sig TestCfg/use_sk_prefix_for_keys",
	`{"e":"\u0041sk\u005flive_ABCDEF1234567890 Bearer ab\u0063defgh12345678"}`,
	`dial https://bob:pa"ss\1234@db/x`,
}

// redactTwice fails t when redacting text again changes what one pass
// returned, as text, as widget HTML and as a JSON document.
func redactTwice(t *testing.T, rd redactor, text string) {
	t.Helper()
	for _, mode := range []struct {
		name string
		f    func(string) []byte
	}{{"text", rd.text}, {"html", rd.html}} {
		once := mode.f(text)
		if twice := mode.f(string(once)); string(twice) != string(once) {
			t.Fatalf("%s redaction is not idempotent:\n in    %q\n once  %q\n twice %q", mode.name, text, once, twice)
		}
	}
	// As a document: text itself when it is one, and as a result's field
	// (encoding/json's escapes, \u003c for '<', as a Trace may hold them).
	enc, _ := json.Marshal(text)
	docs := []string{`{"error":` + string(enc) + `}`}
	if json.Valid([]byte(text)) {
		docs = append(docs, text)
	}
	for _, doc := range docs {
		once := rd.apply([]byte(doc))
		if twice := rd.apply(once); string(twice) != string(once) {
			t.Fatalf("JSON redaction is not idempotent:\n in    %s\n once  %s\n twice %s", doc, once, twice)
		}
	}
}

// Redacting redacted text changes nothing, for every rule and every form
// of every secret header (headerForms).
func TestRedactIdempotent(t *testing.T) {
	t.Parallel()
	rd := redactor{}
	for _, s := range idempotentSeeds {
		redactTwice(t, rd, s)
	}
	for _, form := range headerForms {
		for _, name := range secretHeaders {
			for _, n := range []string{name, strings.ToUpper(name)} {
				res := form(n, "S3cretValue99")
				for _, s := range []string{res.Error, res.Query, string(res.Trace)} {
					redactTwice(t, rd, s)
				}
				for _, w := range res.WidgetSnapshots {
					redactTwice(t, rd, w.WidgetHTML)
				}
			}
		}
	}
}

// redact(redact(x)) == redact(x) for any text.
func FuzzRedactIdempotent(f *testing.F) {
	for _, s := range idempotentSeeds {
		f.Add(s)
	}
	rd := redactor{}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		redactTwice(t, rd, text)
	})
}
