package ingest

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// A run secret is replaced where it stands for text in a string: not
// inside an escape ("\n" then the rest of a token starting with n), not in
// a number; the document stays JSON and the text stays whole.
func TestValueRedactionKeepsJSON(t *testing.T) {
	t.Parallel()
	rd := redactor{}.withValues(RunParams{ServerReplayConfigs: []ServerReplayConfig{
		{AccessToken: "nQ8xK2pLm4"}, {AccessToken: "u0001abcdefg"}, {AccessToken: "12345678"}}}.secrets()...)
	for _, res := range []Result{
		{CaseTitle: "t", Error: "got:\nQ8xK2pLm4 unexpected"}, // the token is not there
		{CaseTitle: "t", Error: "got:\x01abcdefg unexpected"}, // nor here (JSON writes U+0001 as \u0001)
		{CaseTitle: "t", DurationMs: 12345678},
	} {
		b, _ := json.Marshal(res)
		if out := rd.apply(b); !json.Valid(out) || string(out) != string(b) {
			t.Errorf("%s redacted to %s", b, out)
		}
	}
	b, _ := json.Marshal(Result{CaseTitle: "t", Error: "token nQ8xK2pLm4, then\nnQ8xK2pLm4 and 12345678"})
	if out := string(rd.apply(b)); strings.Contains(out, "nQ8xK2pLm4") || strings.Contains(out, "12345678") || !json.Valid([]byte(out)) {
		t.Errorf("tokens not redacted: %s", out)
	}
	if got := string(rd.text("line\nQ8xK2pLm4 more text")); got != "line\nQ8xK2pLm4 more text" {
		t.Errorf("text() = %q", got)
	}
}

// Only credential headers' values are redacted by value (the whole value
// and the credential after its scheme): an ordinary one replaced wherever
// it occurs erased "production" and "application/json" from every result.
func TestValueRedactionOnlyCredentialHeaders(t *testing.T) {
	t.Parallel()
	p := RunParams{HostConfig: HostConfig{"connectionDefaults": map[string]any{"headers": map[string]any{
		"Accept": "application/json", "X-Env": "production", "Cache-Control": "no-cache",
		"Authorization": "Bearer SEKRIT-BEARER-1", "X-Tenant-Key": "SEKRIT-TENANT-2"}}}}
	rd := redactor{}.withValues(p.secrets()...)
	b, _ := json.Marshal(Result{CaseTitle: "production smoke test",
		Error: "server answered application/json with no-cache to SEKRIT-BEARER-1 and SEKRIT-TENANT-2"})
	out := string(rd.apply(b))
	for _, w := range []string{"production smoke test", "application/json", "no-cache"} {
		if !strings.Contains(out, w) {
			t.Errorf("%q erased: %s", w, out)
		}
	}
	if strings.Contains(out, "SEKRIT") {
		t.Errorf("credential kept: %s", out)
	}
}

// A host config built in Go with other shapes than JSON's (typed nested
// maps, header slices) has its credential header values redacted by value
// as well as one decoded from JSON.
func TestValueRedactionGoBuiltHostConfig(t *testing.T) {
	t.Parallel()
	for name, hc := range map[string]HostConfig{
		"nested typed map": {"connectionDefaults": map[string]map[string]string{"headers": {"X-Api-Key": "SEKRIT-HDR-VALUE-1"}}},
		"typed headers":    {"connectionDefaults": map[string]any{"headers": map[string]string{"X-Api-Key": "SEKRIT-HDR-VALUE-1"}}},
	} {
		rd := redactor{}.withValues(RunParams{HostConfig: hc}.secrets()...)
		b, _ := json.Marshal(Result{CaseTitle: "t", Error: "upstream refused SEKRIT-HDR-VALUE-1"})
		if out := string(rd.apply(b)); strings.Contains(out, "SEKRIT") {
			t.Errorf("%s: header value not redacted by value: %s", name, out)
		}
	}
}

// A replay URL's secrets (a tunnel's k in any case, a password) are
// redacted by value too: a result may quote one alone.
func TestValueRedactionReplayURLSecrets(t *testing.T) {
	t.Parallel()
	p := RunParams{ServerReplayConfigs: []ServerReplayConfig{
		{ServerID: "a", URL: "https://relay.example/t/slug/mcp?K=TUNNELSEKRIT123"},
		{ServerID: "b", URL: "https://bob:PASSWDSEKRIT99@mcp.example/mcp"},
	}}
	rd := redactor{}.withValues(p.secrets()...)
	for _, msg := range []string{
		"relay refused secret TUNNELSEKRIT123",
		"login as bob with PASSWDSEKRIT99 failed",
	} {
		b, _ := json.Marshal(Result{CaseTitle: "t", Error: msg})
		if out := string(rd.apply(b)); strings.Contains(out, "SEKRIT") {
			t.Errorf("leaks: %s", out)
		}
	}
}

// The spool's run record keeps the run's identity: an ordinary header
// value that is also in the suite name or the external run id
// (X-Environment: production) is not a secret by value.
func TestSpoolRunIdentityKept(t *testing.T) {
	t.Parallel()
	run := RunParams{SuiteName: "production smoke", ExternalRunID: "production-2026-11-27",
		HostConfig: HostConfig{"connectionDefaults": map[string]any{"headers": map[string]any{"X-Environment": "production"}}}}
	sp, err := openSpool(t.TempDir(), "prj_1", run, redactor{}.withValues(run.secrets()...))
	if err != nil {
		t.Fatal(err)
	}
	path := sp.path
	_ = sp.close(false)
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `"externalRunId":"production-2026-11-27"`) || !strings.Contains(string(b), `"suiteName":"production smoke"`) {
		t.Errorf("spool run record rewritten: %s", b)
	}
}

// A secret quoted as JSON inside an error's text (a service quoting the
// request) is redacted too: text reads the message as a JSON string, which
// escapes the quote's escapes once more.
func TestValueRedactionJSONQuotedInText(t *testing.T) {
	t.Parallel()
	rd := redactor{}.withValues(`Zq"9\Lw07pX`)
	msg := `upstream rejected {"x":"Zq\"9\\Lw07pX"}`
	if got := string(rd.text(msg)); strings.Contains(got, `Lw07pX`) {
		t.Errorf("text(%q) = %q keeps the secret", msg, got)
	}
}

// FuzzReplaceInStrings: replacing a run secret in a JSON document replaces
// it in the document's strings (a number of the same digits and the other
// values are kept, and the document stays JSON).
func FuzzReplaceInStrings(f *testing.F) {
	for _, s := range [][2]string{
		{"a\"b\\c\nsecret1234\"x", "secret1234"},
		{"\\secret\"1234\\", "secret\"1234\\"},
		{"\nQ8xK2pLm4", "nQ8xK2pLm4"},
		{"😀😀secret😀😀secret", "😀secret😀"},
		{"\u2028abcdefgh\u2028", "\u2028abcdefgh"},
		{"\x01\x01\x01\x01\x01\x01\x01\x01\x01", "\x01\x01\x01\x01\x01\x01\x01\x01"},
		{"aaaaaaaaaaaaaaaaa", "aaaaaaaa"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, text, secret string) {
		text = text + secret + text[:len(text)/2] + secret + secret
		if !utf8.ValidString(text) || !utf8.ValidString(secret) || len(secret) < minValueRedacted {
			t.Skip()
		}
		b := append([]byte(`{"a":`), appendString(nil, text)...)
		b = append(b, `,"n":12345678,"l":[`...)
		b = appendString(b, text)
		b = append(b, `,true,null,`...)
		b = appendString(b, text+text)
		b = append(b, "]}"...)
		out := redactor{}.withValues(secret).values
		got := decodeValueDoc(t, replaceInStrings(append([]byte(nil), b...), out), b)
		if got.N != 12345678 || got.L[1] != true || got.L[2] != nil {
			t.Errorf("secret %q text %q: not strings changed: %+v", secret, text, got)
		}
		for _, s := range []any{got.A, got.L[0], got.L[3]} {
			if str, _ := s.(string); !strings.Contains(str, Redacted) || strings.Contains(str, secret) {
				t.Errorf("secret %q text %q: a string left as %q", secret, text, str)
			}
		}
	})
}

// A secret in a Trace, which keeps its caller's encoding, is redacted as
// encoding/json's default writes it (<, > and & escaped) and as encoders
// that escape every / write it.
func TestValueRedactionTraceSpellings(t *testing.T) {
	t.Parallel()
	rd := redactor{}.withValues("cs<9f&Kq2Lp>", "ya29.a0Af/Hx-9Zq")
	trace, _ := json.Marshal(map[string]string{"secret": "cs<9f&Kq2Lp>"}) // "cs\u003c9f\u0026..."
	for _, tr := range []string{string(trace), `{"token":"ya29.a0Af\/Hx-9Zq"}`} {
		b, _ := json.Marshal(Result{CaseTitle: "t", Trace: json.RawMessage(tr)})
		if out := string(rd.apply(b)); strings.Contains(out, "Kq2Lp") || strings.Contains(out, "Hx-9Zq") || !json.Valid([]byte(out)) {
			t.Errorf("trace %s redacted to %s", tr, out)
		}
	}
}

// The other spellings of a secret are also found quoted as JSON inside an
// error's text (escaped once more when text reads it).
func TestValueRedactionOtherSpellingsQuotedInText(t *testing.T) {
	t.Parallel()
	rd := redactor{}.withValues("cs<9f&Kq2Lp>", "ya29.a0Af/Hx-9Zq")
	for _, msg := range []string{`upstream said {"s":"cs\u003c9f\u0026Kq2Lp\u003e"}`, `upstream said {"t":"ya29.a0Af\/Hx-9Zq"}`} {
		if got := string(rd.text(msg)); strings.Contains(got, "Kq2Lp") || strings.Contains(got, "Hx-9Zq") {
			t.Errorf("text(%q) = %q", msg, got)
		}
	}
}

// A secret that begins another (an access token and a refresh token made
// from it) leaves nothing of the longer one behind.
func TestValueRedactionLongestFirst(t *testing.T) {
	t.Parallel()
	rd := redactor{}.withValues(RunParams{ServerReplayConfigs: []ServerReplayConfig{{
		URL: "https://mcp.example/x", AccessToken: "tok_ABCDEFGH", RefreshToken: "tok_ABCDEFGH.refresh-TAILSECRET",
	}}}.secrets()...)
	if out := string(rd.apply([]byte(`[{"output":"refresh with tok_ABCDEFGH.refresh-TAILSECRET"}]`))); strings.Contains(out, "TAILSECRET") {
		t.Errorf("redacted %s: the longer secret's tail is left", out)
	}
}

// valueDoc is the document FuzzReplaceInStrings redacts.
type valueDoc struct {
	A any
	N float64
	L []any
}

// decodeValueDoc decodes out, the redacted b, failing t when it is no
// JSON.
func decodeValueDoc(t *testing.T, out, b []byte) valueDoc {
	t.Helper()
	var d valueDoc
	if err := json.Unmarshal(out, &d); err != nil || len(d.L) != 4 {
		t.Fatalf("invalid JSON %q from %q", out, b)
	}
	return d
}

// A match found only in a string's decoded text replaces what it was
// decoded from, and the rest of the string stays as written: the whole
// string was encoded anew, \u003c written as '<', \/ as '/' and a lone
// surrogate \ud800 as U+FFFD, a character lost.
func TestCleanStringKeepsRestAsWritten(t *testing.T) {
	t.Parallel()
	rd := redactor{}.withValues("00000000")
	doc := `{"a":"x\u003cy \ud800 \/p 1\u000000000000","n":100000000,"b":"\u003c00000000"}`
	out := string(rd.apply([]byte(doc)))
	want := `{"a":"x\u003cy \ud800 \/p 1\u0000` + Redacted + `","n":100000000,"b":"\u003c` + Redacted + `"}`
	if out != want {
		t.Errorf("apply(%s)\n = %s\nwant %s", doc, out, want)
	}
}

// A digits run secret is taken out of the text, in any spelling, and kept
// in a number.
func TestDigitsRunSecretKeptInNumber(t *testing.T) {
	t.Parallel()
	rd := redactor{}.withValues("20240101")
	doc := `{"durationMs":20240101,"error":"token 20240101 refused","t":"%32%30240101"}`
	out := string(rd.apply([]byte(doc)))
	if strings.Contains(out, "20240101 refused") || strings.Contains(out, "%32%30240101") || !strings.Contains(out, `"durationMs":20240101`) {
		t.Errorf("apply(%s) = %s", doc, out)
	}
}

// decodeJSONString decodes a JSON string as encoding/json does, each byte
// with the stretch it came from: cleanString's matches in the decoded text
// are the ones the rules look for.
func FuzzDecodeJSONString(f *testing.F) {
	for _, s := range []string{`"a\u003cb"`, `"\ud800 \ud83d\ude00 \/\\\"\b\f\n\r\t"`, "\"\xff\"", `"\ud83dx"`, `"\u"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, r string) {
		var want string
		if json.Unmarshal([]byte(r), &want) != nil || len(r) < 2 || r[0] != '"' || r[len(r)-1] != '"' {
			return // no JSON string, or one with white space around it
		}
		dec, units, ok := decodeJSONString(r)
		if !ok || dec != want || len(units) != len(dec) {
			t.Fatalf("decodeJSONString(%q) = %q, %d units, %v; want %q", r, dec, len(units), ok, want)
		}
	})
}
