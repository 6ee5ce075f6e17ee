package ingest

import (
	"encoding/json"
	"strings"
	"testing"
)

// The built-in rules remove secrets and leave ordinary test output alone.
func TestRedactRules(t *testing.T) {
	t.Parallel()
	rd := redactor{key: func(s string) string { return strings.ReplaceAll(s, "sk_thekey.with.dots", Redacted) }}
	for _, tt := range []struct{ in, want string }{
		{"key sk_thekey.with.dots here", "key [REDACTED] here"},
		{"sk_live_0123456789abcdef", "[REDACTED]"},
		{"Authorization: Bearer abc.def.ghi\nnext line", "Authorization: [REDACTED]\nnext line"},
		{"proxy-authorization:basic Zm9vOmJhcg==", "proxy-authorization:[REDACTED]"},
		{"Set-Cookie: a=1; b=\"2\"\nok", "Set-Cookie: [REDACTED]\nok"},
		{"x-api-key: 12345", "x-api-key: [REDACTED]"},
		{"sent bearer eyJhbGciOiJIUzI1NiJ9.e30.sig!", "sent bearer [REDACTED]!"},
		{"dial postgres://admin:s3cret@db:5432/x", "dial postgres://[REDACTED]@db:5432/x"},
		// Every spelling of the API-key header, and X-Auth-Token.
		{"Api-Key: hunter2hunter2", "Api-Key: [REDACTED]"},
		{"api-key=hunter2hunter2&x=1", "api-key=[REDACTED]"},
		{"map[Api-Key:[hunter2] Content-Type:[application/json]]", "map[Api-Key:[[REDACTED]] Content-Type:[application/json]]"},
		{`http.Header{"Api-Key":[]string{"hunter2"}}`, `http.Header{"Api-Key":[]string{"[REDACTED]"}}`},
		{"GET /x?api_key=hunter2hunter2", "GET /x?api_key=[REDACTED]"},
		{"APIKEY: hunter2", "APIKEY: [REDACTED]"},
		{"X-API_KEY: hunter2", "X-API_KEY: [REDACTED]"},
		{`{"apiKey":"hunter2"}`, `{"apiKey":"[REDACTED]"}`},
		{"X-Auth-Token: hunter2\nok", "X-Auth-Token: [REDACTED]\nok"},
		{`[{"name":"Authorization","value":"Basic Zm9vOmJhcg=="}]`, `[{"name":"Authorization","value":"[REDACTED]"}]`},
		{`{"name": "x-auth-token", "value": "hunter2"}`, `{"name": "x-auth-token", "value": "[REDACTED]"}`},
		// Not secrets.
		{"the api key is missing; set PROJECTOPS_API_KEY first; apikey lookup failed", "the api key is missing; set PROJECTOPS_API_KEY first; apikey lookup failed"},
		{"auth token expired", "auth token expired"},
		{`{"name":"Content-Type","value":"text/plain"}`, `{"name":"Content-Type","value":"text/plain"}`},
		{"the risk_of sk_ prefix alone, task_sk_1", "the risk_of sk_ prefix alone, task_sk_1"},
		{"cookie jar is empty; authorization failed", "cookie jar is empty; authorization failed"},
		{"mail me at a@b.c, see https://example.com/x", "mail me at a@b.c, see https://example.com/x"},
		{"--- FAIL: TestBearer (0.00s)", "--- FAIL: TestBearer (0.00s)"},
	} {
		enc, _ := json.Marshal(tt.in)
		out := rd.apply(enc)
		var got string
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%q: redaction broke the JSON: %s", tt.in, out)
		}
		if got != tt.want {
			t.Errorf("%q:\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// The structured forms: a JSON document's object keys and name/value pairs
// naming a secret header (a HAR's headers), in any case.
func TestRedactStructuredHeaders(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{`{"metadata":{"Api-Key":"v1v1v1","X-Auth-Token":["v2"]}}`, `{"metadata":{"Api-Key":"[REDACTED]","X-Auth-Token":["[REDACTED]"]}}`},
		{`{"api_key":"v1v1v1","apikey":"v2"}`, `{"api_key":"[REDACTED]","apikey":"[REDACTED]"}`},
		{`{"headers":[{"name":"COOKIE","value":"a=1"},{"name":"Accept","value":"*/*"}]}`, `{"headers":[{"name":"COOKIE","value":"[REDACTED]"},{"name":"Accept","value":"*/*"}]}`},
		{`{"name":"apiKey", "value" : ["v1","v2"]}`, `{"name":"apiKey", "value" : ["[REDACTED]"]}`},
	} {
		if got := string(redactor{}.apply([]byte(tt.in))); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// Widget HTML (uploaded or spooled beside a result, or its widgetHtml
// field) ends a bare header value where the line shown ends (a <br> or a
// block element's tag), not at the end of the source line: a one-line page
// keeps its markup, and the value is still gone, inline markup inside it
// included. Everywhere else the value runs to the end of the line.
func TestRedactHTMLHeaderValue(t *testing.T) {
	t.Parallel()
	rd := redactor{}
	const page = `<html><pre>Authorization: Basic Zm9vOmJhcg==</pre><p>Cookie: a=1; b=2<br/>next</p><div>x-api-key: k1k1k1</div>` +
		`<p>Api-Key: 3 < 4 <b>k2k2k2</b> <span>k4k4</span></p><TD>X-Auth-Token: "k3 k3"</TD>` +
		`<p>Cookie: <div>k5k5</div></p><p>end</p></html>`
	const want = `<html><pre>Authorization: [REDACTED]</pre><p>Cookie: [REDACTED]<br/>next</p><div>x-api-key: [REDACTED]</div>` +
		`<p>Api-Key: [REDACTED]</p><TD>X-Auth-Token: "[REDACTED]"</TD>` +
		`<p>Cookie: [REDACTED]`
	if got := string(rd.html(page)); got != want {
		t.Errorf("html:\n got %s\nwant %s", got, want)
	}
	// As text (a title, an error), the same line loses all after the name.
	if got := string(rd.text("<pre>Authorization: Basic Zm9vOmJhcg==</pre><p>x</p>")); got != "<pre>Authorization: [REDACTED]" {
		t.Errorf("text: %s", got)
	}
	// Inline, a result's widgetHtml field reads the same way as uploaded.
	b := rd.apply([]byte(`{"error":"<p>Cookie: a=1</p>","widgetSnapshots":[{"widgetHtml": "` + strings.ReplaceAll(page, `"`, `\"`) + `"}]}`))
	var res Result
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if res.Error != "<p>Cookie: [REDACTED]" || res.WidgetSnapshots[0].WidgetHTML != want {
		t.Errorf("inline: %s", b)
	}
	for _, secret := range []string{"Zm9v", "a=1", "k1k1", "k2k2", "k3", "k4k4", "k5k5"} {
		if strings.Contains(string(b), secret) || strings.Contains(string(rd.html(page)), secret) {
			t.Errorf("%q survived", secret)
		}
	}
}

// boundedOutput keeps exactly the first head and last tail bytes.
func TestBoundedOutput(t *testing.T) {
	t.Parallel()
	var all strings.Builder
	var o boundedOutput
	for i := range 500 {
		s := strings.Repeat(string(rune('a'+i%26)), i%37)
		all.WriteString(s)
		o.write([]byte(s), 50, 70)
		full := all.String()
		want := full
		if len(full) > 120 {
			want = full[:50] + "\n" + marker(len(full)-120) + "\n" + full[len(full)-70:]
		}
		if got := o.String(); got != want {
			t.Fatalf("after %d writes (%d bytes):\n got %q\nwant %q", i+1, len(full), got, want)
		}
	}
}
