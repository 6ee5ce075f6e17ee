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
		// At the start of a line, after a tab, after invalid UTF-8: JSON
		// escapes what precedes "bearer" ("\nBearer", "\ufffdBearer").
		{"sent:\nBearer eyJhbGciOiJIUzI1NiJ9.e30.sig", "sent:\nBearer [REDACTED]"},
		{"sent:\tBearer\teyJhbGciOiJIUzI1NiJ9.e30.sig", "sent:\tBearer\t[REDACTED]"},
		{"sent:\xffBearer eyJhbGciOiJIUzI1NiJ9.e30.sig", "sent:\ufffdBearer [REDACTED]"},
		{"dial postgres://admin:s3cret@db:5432/x", "dial postgres://[REDACTED]@db:5432/x"},
		// encoding/json writes '&' as \u0026: still credentials.
		{"dial https://bob:p&ss<1>@db/x", "dial https://[REDACTED]@db/x"},
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

// A secret header's name as a JSON key in any case and with '_', '-' or
// nothing between its words, and a name/value pair whatever the order of
// its members and whatever sits between them (a HAR's comment, Go's
// default field names), in the result's JSON and in JSON text inside a
// string.
func TestRedactStructuredSpellingsAndPairOrder(t *testing.T) {
	t.Parallel()
	rd := redactor{}
	for _, tc := range []struct{ name, in, secret string }{
		{"text form", `{"error":"X_API_KEY: S3cretText"}`, "S3cretText"},
		{"text X_Auth_Token", `{"error":"X_Auth_Token: S3cretText2"}`, "S3cretText2"},
		{"JSON key X_API_KEY", `{"metadata":{"X_API_KEY":"S3cretKey1"}}`, "S3cretKey1"},
		{"JSON key x_apikey", `{"metadata":{"x_apikey":"S3cretKey2"}}`, "S3cretKey2"},
		{"JSON key X_Auth_Token", `{"metadata":{"X_Auth_Token":"S3cretKey3"}}`, "S3cretKey3"},
		{"JSON key xApiKey", `{"metadata":{"xApiKey":"S3cretKey4"}}`, "S3cretKey4"},
		{"JSON key Set_Cookie", `{"metadata":{"Set_Cookie":["S3cretKey5"]}}`, "S3cretKey5"},
		{"pair, value first", `{"trace":{"headers":[{"value":"S3cretPair1","name":"Authorization"}]}}`, "S3cretPair1"},
		{"HAR pair with comment between", `{"trace":{"headers":[{"name":"Cookie","comment":"","value":"S3cretPair2"}]}}`, "S3cretPair2"},
		{"Go field names, value first", `{"trace":[{"Value":["S3cretPair3"], "Name" : "x_api_key"}]}`, "S3cretPair3"},
		{"value an object", `{"trace":{"value":{"v":"S3cretPair4"},"x":[1,{"y":2}],"name":"Cookie"}}`, "S3cretPair4"},
		{"pair inside a pair's value", `{"trace":{"name":"Cookie","value":{"value":"S3cretPair5","name":"Authorization"}}}`, "S3cretPair5"},
		{"JSON text in a string", `{"error":"body: {\"value\":\"S3cretPair6\",\"name\":\"Authorization\"} (401)"}`, "S3cretPair6"},
		{"JSON document in a string", `{"error":"{\"headers\":[{\"value\":\"S3cretPair7\",\"comment\":\"\",\"name\":\"cookie\"}]}"}`, "S3cretPair7"},
	} {
		got := string(rd.apply([]byte(tc.in)))
		if !json.Valid([]byte(got)) {
			t.Errorf("%s: redaction broke the JSON: %s", tc.name, got)
		}
		if tc.secret != "" && strings.Contains(got, tc.secret) {
			t.Errorf("%s: secret survives: %s", tc.name, got)
		}
	}
	// Not secrets: pairs and keys naming other headers stay as they are.
	for _, in := range []string{
		`{"headers":[{"name":"Content-Type","comment":"","value":"text/plain"},{"value":"*/*","name":"Accept"}]}`,
		`{"metadata":{"api_version":"2","x_key":"k","token":"t","name":"cookie jar","value":"kept"}}`,
	} {
		if got := string(rd.apply([]byte(in))); got != in {
			t.Errorf("%s:\n changed to %s", in, got)
		}
	}
}

// Widget HTML (uploaded or spooled beside a result, or its widgetHtml
// field) reads a bare header value as text does: to the end of the source
// line, whatever tags sit in it. A one-line page loses everything after the
// header (over-redaction is the safe side); the other lines of a page are
// kept.
func TestRedactHTMLHeaderValue(t *testing.T) {
	t.Parallel()
	rd := redactor{}
	const page = "<html><pre>Authorization: Basic Zm9vOmJhcg==</pre><p>ok</p>\n" +
		"<p>Cookie: a=1; b=2<br/>next</p>\n<div>x-api-key: k1k1k1</div>\n" +
		"<p>Api-Key: 3 < 4 <b>k2k2k2</b> <span>k4k4</span></p><TD>X-Auth-Token: \"k3 k3\"</TD>\n" +
		"<p>Cookie: <div>k5k5</div></p><p>end</p></html>"
	const want = "<html><pre>Authorization: [REDACTED]\n" +
		"<p>Cookie: [REDACTED]\n<div>x-api-key: [REDACTED]\n" +
		"<p>Api-Key: [REDACTED]\n" +
		"<p>Cookie: [REDACTED]"
	if got := string(rd.html(page)); got != want {
		t.Errorf("html:\n got %s\nwant %s", got, want)
	}
	// As text (a title, an error), the same line loses all after the name.
	if got := string(rd.text("<pre>Authorization: Basic Zm9vOmJhcg==</pre><p>x</p>")); got != "<pre>Authorization: [REDACTED]" {
		t.Errorf("text: %s", got)
	}
	// Inline, a result's widgetHtml field reads the same way as uploaded.
	b := rd.apply([]byte(`{"error":"<p>Cookie: a=1</p>","widgetSnapshots":[{"widgetHtml": ` + string(encodeString(page)) + `}]}`))
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

// No tag ends a header value in widget HTML: a <br> or block tag inside a
// comment or a quoted attribute does not end the line shown, nor does a
// <script>, <style>, <textarea> or <title>; every secret below sits on its
// header's source line and is redacted, uploaded, spooled or inline.
func TestRedactHTMLNoTagEndsHeaderValue(t *testing.T) {
	t.Parallel()
	rd := redactor{}
	for _, tc := range []struct{ name, page, secret string }{
		{"<br> inside a comment", `<p>X-Api-Key: k1<!-- <br> -->S3cretComment</p>`, "S3cretComment"},
		{"<br> inside a quoted attribute", `<p>X-Api-Key: <span title="a<br>b">S3cretAttr</span></p>`, "S3cretAttr"},
		{"<p> inside a quoted attribute", `<pre>Cookie: sid=<abbr title="<p>">S3cretAbbr</abbr></pre>`, "S3cretAbbr"},
		{"<script>", `<p>X-Api-Key: k1<script>var x</script>S3cretScript</p>`, "S3cretScript"},
		{"<style>", `<p>Authorization: Basic k1<style>b{}</style>S3cretStyle</p>`, "S3cretStyle"},
		{"<textarea>", `<p>Cookie: sid=<textarea>S3cretTextarea</textarea></p>`, "S3cretTextarea"},
		{"<br>", `<p>Cookie: a=1<br>S3cretBr</p>`, "S3cretBr"},
		{"block tag", `<div>Authorization: Basic k1</div><div>S3cretDiv</div>`, "S3cretDiv"},
	} {
		if got := string(rd.text(tc.page)); strings.Contains(got, tc.secret) {
			t.Errorf("%s: text keeps the secret: %s", tc.name, got)
		}
		if got := string(rd.html(tc.page)); strings.Contains(got, tc.secret) {
			t.Errorf("%s: uploaded/spooled widget HTML keeps the secret: %s", tc.name, got)
		}
		inline := string(rd.apply([]byte(`{"widgetSnapshots":[{"widgetHtml":` + string(encodeString(tc.page)) + `}]}`)))
		if strings.Contains(inline, tc.secret) {
			t.Errorf("%s: inline widgetHtml keeps the secret: %s", tc.name, inline)
		}
	}
}

// In widget HTML, a secret header's value is found in the forms a page
// shows it: the name wrapped in markup, a header table or definition list,
// a value on the next source line (a line break is a space when shown).
// Prose and other tables stay as they are.
func TestRedactHTMLHeaderForms(t *testing.T) {
	t.Parallel()
	rd := redactor{}
	for _, tc := range []struct{ name, page, secret string }{
		{"bold name", `<p><b>Authorization</b>: Basic dXNlcjpTM2NyZXQ=</p>`, "dXNlcjpTM2NyZXQ="},
		{"header table", `<table><tr><th>X-Api-Key</th><td>S3cretTable</td></tr></table>`, "S3cretTable"},
		{"header table, attributes, markup", `<TR><TH class="k">cookie</TH>` + "\n  " + `<TD style="x"><code>S3cretTd</code></TD></TR>`, "S3cretTd"},
		{"cells of a name and a value", `<tr><td>Authorization</td><td>S3cretCell</td></tr>`, "S3cretCell"},
		{"unclosed cell", `<table><tr><th>Cookie<td>S3cretOpen<tr><th>x<td>y</table>`, "S3cretOpen"},
		{"definition list", "<dl><dt>Cookie</dt><dd>sid=S3cretDl</dd></dl>", "S3cretDl"},
		{"value on next source line", "<p>Cookie:\n  sid=S3cretNewline</p>", "S3cretNewline"},
		{"value after blank lines", "<p><i>Set-Cookie</i>:\n\n\r\n  <b>sid=S3cretBlank</b></p>", "S3cretBlank"},
		{"value wrapped by a formatter", "<div>Authorization: Basic\n  dXNlcjpTM2NyZXQ=</div>", "dXNlcjpTM2NyZXQ="},
		{"scheme in markup", "<div>Authorization: <b>Bearer</b>\n  S3cretWrapped</div>", "S3cretWrapped"},
	} {
		got := string(rd.html(tc.page))
		if strings.Contains(got, tc.secret) {
			t.Errorf("%s: secret survives: %s", tc.name, got)
		}
		inline := string(rd.apply([]byte(`{"widgetSnapshots":[{"widgetHtml":` + string(encodeString(tc.page)) + `}]}`)))
		if strings.Contains(inline, tc.secret) {
			t.Errorf("%s: inline widgetHtml keeps the secret: %s", tc.name, inline)
		}
	}
	for _, page := range []string{
		"<p>The cookie jar is empty; <b>authorization</b> failed.</p>\n<p>Next</p>",
		"<table><tr><th>Cookie</th><th>Purpose</th></tr><tr><td>sid</td><td>session</td></tr></table>",
		"<p>Set the <em>cookie</em></p>\n<p>then reload</p>",
		"<div>Cookie: a=1</div>\n<div>kept</div>",
		"<td>api key</td><td>kept</td>",
	} {
		want := page
		if i := strings.Index(page, "a=1"); i >= 0 {
			want = page[:i] + Redacted + page[strings.IndexByte(page, '\n'):]
		}
		if got := string(rd.html(page)); got != want {
			t.Errorf("%q:\n got %q\nwant %q", page, got, want)
		}
	}
}

// boundedOutput keeps exactly the first head and last tail bytes (its
// margins are for redaction, never shown).
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
		if got := o.text(redactor{}); got != want {
			t.Fatalf("after %d writes (%d bytes):\n got %q\nwant %q", i+1, len(full), got, want)
		}
	}
}

// Values in forms the rules once missed (the redactor at 7757a9c too): a
// folded header line, a secret header key whose value is an object or a
// number, a cookies list's cookies, and a name/value pair's "value"
// member when it repeats.
func TestRedactFoldedObjectAndCookieValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ doc, secret string }{
		// a folded header line in plain text (obs-fold continuation)
		{`{"error":"Authorization: Basic\r\n dXNlcjpodW50ZXIy"}`, "dXNlcjpodW50ZXIy"},
		// a secret header as a result field's key with an object or number value
		{`{"advancedConfig":{"headers":{"Cookie":{"session":"s3cr3tSess"}}}}`, "s3cr3tSess"},
		{`{"metadata":{"X-Api-Key":918273645546372819}}`, "918273645546372819"},
		// a HAR's (or Playwright storageState's) cookies list: name/value pairs named by the cookie
		{`{"trace":{"request":{"cookies":[{"name":"sid","value":"s3cr3tSid"}]}}}`, "s3cr3tSid"},
		// a duplicate "value" member before the name (only the last was replaced)
		{`{"trace":[{"value":"s3cr3tDup","value":"x","name":"Cookie"}]}`, "s3cr3tDup"},
	} {
		got := string(redactor{}.apply([]byte(tc.doc)))
		if strings.Contains(got, tc.secret) {
			t.Errorf("%q survives: %s", tc.secret, got)
		}
	}
}

// A Postman-style {"key":...,"value":...} pair is redacted in either member
// order, as a HAR's {"name":...,"value":...} is.
func TestRedactKeyValuePairAnyOrder(t *testing.T) {
	for _, in := range []string{
		`{"headers":[{"key":"Authorization","value":"s3cretKV1"}]}`,
		`{"headers":[{"value":"s3cretKV1","key":"Authorization"}]}`,
		`{"headers":[{"value":"s3cretKV1","disabled":false,"KEY":"x-api-key"}]}`,
	} {
		if got := string(redactor{}.apply([]byte(in))); strings.Contains(got, "s3cretKV1") || !json.Valid([]byte(got)) {
			t.Errorf("%s -> %s", in, got)
		}
	}
}

// A folded value runs on over the lines a space or tab starts, but for go
// test's own lines: a test's next log message, indented as the line with
// the header is, and its --- result line are not the value (the failure's
// reason was dropped with them). Folds whatever their indentation (a tab
// under spaces, equal indentation, widget HTML's pretty-printing) stay
// part of the value.
func TestRedactFoldStopsAtGoTestLines(t *testing.T) {
	t.Parallel()
	out := "    b_test.go:5: X-Api-Key: hunter2\n    b_test.go:6: line two important\n" +
		"    b_test.go:7: the real failure\n--- FAIL: TestLeak (0.00s)\n"
	doc, _ := json.Marshal(map[string]string{"error": out})
	got := string(redactor{}.apply(doc))
	if strings.Contains(got, "hunter2") || !strings.Contains(got, "line two important") ||
		!strings.Contains(got, "the real failure") || !strings.Contains(got, "--- FAIL: TestLeak") {
		t.Errorf("go test log: %s", got)
	}
	// A header printed at column 0 (fmt.Println) before the test's next message.
	col0, _ := json.Marshal(map[string]string{"error": "Authorization: Bearer abc123secret\n    x_test.go:7: the real failure\n"})
	if got := string(redactor{}.apply(col0)); strings.Contains(got, "abc123secret") || !strings.Contains(got, "the real failure") {
		t.Errorf("column-0 header: %s", got)
	}
	for _, c := range []struct{ name, text, secret string }{
		{"deeper continuation", "    x_test.go:5: Authorization: Bearer abc\n         d3f0ldedSecret\n", "d3f0ldedSecret"},
		{"tab fold under space indent", "request:\n    Authorization: Basic\r\n\tdXNlcjpzM2NyZXRwYXNz\r\n    Host: x\r\n", "dXNlcjpzM2NyZXRwYXNz"},
		{"equal indent", "  Cookie: sid=abc;\r\n  csrf=S3cretCsrfValue\r\n", "S3cretCsrfValue"},
	} {
		doc, _ := json.Marshal(map[string]string{"error": c.text})
		if got := string(redactor{}.apply(doc)); strings.Contains(got, c.secret) {
			t.Errorf("%s: %s survives: %s", c.name, c.secret, got)
		}
	}
	page := "<div>\n  <p>\n    Cookie: sid=abc;\n    csrf=S3cretCsrfValue\n  </p>\n</div>"
	if got := string(redactor{}.html(page)); strings.Contains(got, "S3cretCsrfValue") {
		t.Errorf("widget HTML: the wrapped cookie survives:\n%s", got)
	}
	widget, _ := json.Marshal(map[string]string{"widgetHtml": page})
	if got := string(redactor{}.apply(widget)); strings.Contains(got, "S3cretCsrfValue") {
		t.Errorf("widgetHtml field: the wrapped cookie survives:\n%s", got)
	}
}

// A quoted or bracketed value ends at its closing delimiter: it is not
// folded on over the lines after it (the last member of a pretty-printed
// JSON object took the rest of the document, the failure's reason with it).
func TestRedactClosedValueIsNotFolded(t *testing.T) {
	t.Parallel()
	msg := "unexpected response: {\n  \"headers\": {\n    \"X-Trace\": \"abc\",\n    \"Cookie\": \"sid=s3cr3t\"\n  },\n" +
		"  \"status\": 500,\n  \"error\": \"database timeout on orders\"\n}\n"
	doc, _ := json.Marshal(map[string]string{"error": msg})
	got := string(redactor{}.apply(doc))
	if strings.Contains(got, "s3cr3t") || !strings.Contains(got, "database timeout on orders") {
		t.Errorf("pretty-printed JSON: %s", got)
	}
	txt := "  Authorization: \"Bearer tok3n\"\n  want status 200, got 503\n"
	if got := string(redactor{}.text(txt)); strings.Contains(got, "tok3n") || !strings.Contains(got, "want status 200") {
		t.Errorf("a quoted value: %q", got)
	}
	// One never closed still runs to its line's end and on over its fold.
	open := "  Authorization: \"Bearer tok3n\n\tf0lded\n"
	if got := string(redactor{}.text(open)); strings.Contains(got, "tok3n") || strings.Contains(got, "f0lded") {
		t.Errorf("an unclosed quote: %q", got)
	}
}
