package transport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// keySpellings are ways a service, a proxy or a gateway may quote
// testKey back: the same spellings a credential header's value is found
// in (TestCredentialHeaderAnySpellingRedacted), the key being no less a
// secret.
func keySpellings() map[string]string {
	return map[string]string{
		"as sent":                testKey,
		"PathEscape":             url.PathEscape(testKey),
		"first letter escaped":   "%73k_test_SECRET123",
		"one char, lower hex":    "sk%5ftest_SECRET123",
		"one char, upper hex":    "sk_test_SEC%52ET123",
		"mixed-case hex":         "%73k%5Ftest%5fSECRET123",
		`JSON \u0073`:            `\u0073k_test_SECRET123`,
		`JSON \u005F mixed`:      `sk\u005Ftest\u005fSECRET123`,
		"two layers":             "%2573k_test_SECRET123",
		"two layers, mixed case": "sk%255ftest%255FSECRET123",
		"every byte, lower hex":  everyByteEscaped(testKey),
	}
}

// everyByteEscaped is s with every byte written %xx, lower-case hex.
func everyByteEscaped(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		fmt.Fprintf(&b, "%%%02x", c)
	}
	return b.String()
}

// The API key quoted back in any spelling is found as a credential
// header's value is: the message, a details value and key at any depth,
// a legacy refusal's text, the request id, WithResponseInto's headers,
// a network failure's text and the client's debug log show none of it,
// and the envelope's code is kept.
func TestKeyAnySpellingRedacted(t *testing.T) {
	t.Parallel()
	for name, spelt := range keySpellings() {
		msg, _ := json.Marshal("bad key " + spelt + " end")
		deep, _ := json.Marshal(spelt)
		body := `{"code":"VALIDATION_ERROR","message":` + string(msg) + `,"details":{"a":{"b":[{"c":` + string(deep) + `}]},` + string(deep) + `:1}}`
		var logs bytes.Buffer
		logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		do := func(rt roundTripFunc, opts ...option.RequestOption) error {
			tr, _ := newTestTransport(t, rt, func(c *Config) { c.MaxRetries = 0; c.Logger = logger })
			return tr.Do(WithOptions(t.Context(), opts), &Request{Method: http.MethodGet, Route: "/x", Class: Read}, &struct{}{})
		}
		var meta option.Response
		err := do(func(r *http.Request) (*http.Response, error) {
			return jsonAnswer(r, http.StatusBadRequest, body, http.Header{RequestIDHeader: {spelt}, "X-Echo": {spelt}}), nil
		}, option.WithResponseInto(&meta))
		e, ok := errors.AsType[*shared.Error](err)
		if !ok || e.Code != shared.CodeValidation {
			t.Fatalf("%s: the envelope is lost: %v", name, err)
		}
		deepGot := e.Details["a"].(map[string]any)["b"].([]any)[0].(map[string]any)["c"]
		if e.Message != "bad key "+keyMarker+" end" || deepGot != keyMarker || e.RequestID != keyMarker || e.Details[keyMarker] == nil {
			t.Errorf("%s: message %q, details %v, request id %q; want the key replaced", name, e.Message, e.Details, e.RequestID)
		}
		if meta.RequestID != keyMarker || meta.Header.Get("X-Echo") != keyMarker {
			t.Errorf("%s: WithResponseInto request id %q, X-Echo %q; want the key replaced", name, meta.RequestID, meta.Header.Get("X-Echo"))
		}
		legacy, _ := json.Marshal(map[string]any{"ok": false, "error": "bad key " + spelt})
		lerr := do(func(r *http.Request) (*http.Response, error) {
			return jsonAnswer(r, http.StatusBadRequest, string(legacy), nil), nil
		})
		nerr := do(func(*http.Request) (*http.Response, error) {
			return nil, errors.New("proxy refused key " + spelt)
		})
		if !strings.Contains(nerr.Error(), "refused key "+keyMarker) {
			t.Errorf("%s: network failure %q; want the key replaced", name, nerr.Error())
		}
		for _, shown := range []string{fmt.Sprintf("%s %v %+v %#v", err.Error(), err, err, err), lerr.Error(), nerr.Error(), logs.String()} {
			if strings.Contains(shown, spelt) || strings.Contains(strings.ToLower(shown), "secret123") {
				t.Errorf("%s: the key is shown: %.400s", name, shown)
			}
		}
	}
}

// Redact, which callers above the transport (ingest, the path of an id
// pasted from the key) use, finds the key in any spelling too.
func TestRedactKeyAnySpelling(t *testing.T) {
	t.Parallel()
	tr, _ := newTestTransport(t, nil)
	for name, spelt := range keySpellings() {
		if got := tr.Redact("<" + spelt + ">"); got != "<"+keyMarker+">" {
			t.Errorf("%s: Redact(%q) = %q", name, spelt, got)
		}
	}
}

// RedactJSON takes the key out of a JSON document in any spelling, the
// document staying JSON: the key's spelling JSON-escaped once more
// (\\u0073), next to an escape, as an object's key.
func TestRedactJSONKeyAnySpelling(t *testing.T) {
	t.Parallel()
	tr, _ := newTestTransport(t, nil)
	for name, spelt := range keySpellings() {
		for _, doc := range []string{
			`{"code":"VALIDATION_ERROR","m":` + jsonString(spelt) + `}`,
			`{"m":` + jsonString(`a\`+spelt+`"`) + `,` + jsonString(spelt) + `:1}`,
		} {
			got := tr.RedactJSON(doc)
			if !json.Valid([]byte(got)) || strings.Contains(strings.ToLower(got), "secret123") || !strings.Contains(got, keyMarker) {
				t.Errorf("%s: RedactJSON(%s) = %s", name, doc, got)
			}
		}
	}
}

// jsonString is s as encoding/json writes it.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// The key inside a credential header's value and inside a request secret,
// both echoed escaped (the key's own escapes among them): no piece of
// either is shown, and the envelope's code is kept.
func TestKeyInsideHeaderValueAndSecretEchoedEscaped(t *testing.T) {
	t.Parallel()
	hdr := "pfx-" + testKey + "-HDRTAIL9"
	sec := "SECHEAD7:" + testKey
	for _, echo := range []string{
		url.QueryEscape(hdr), "%70fx-%73k" + url.QueryEscape(hdr[6:]), url.QueryEscape(sec), `SECHEAD7:\u0073` + testKey[1:],
		"pfx-%2573" + testKey[1:],
	} {
		msg, _ := json.Marshal("echo " + echo + " end")
		tr, _ := newTestTransport(t, roundTripFunc(func(r *http.Request) (*http.Response, error) {
			return jsonAnswer(r, http.StatusBadRequest, `{"code":"VALIDATION_ERROR","message":`+string(msg)+`,"details":{"x":`+string(msg)+`}}`, nil), nil
		}), func(c *Config) { c.MaxRetries = 0; c.Header = http.Header{"X-Proxy-Token": {hdr}} })
		err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/x", Class: Read, Secrets: []string{sec}}, &struct{}{})
		s := fmt.Sprintf("%v %+v", err, err)
		low := strings.ToLower(s)
		if !strings.Contains(s, "VALIDATION_ERROR") || strings.Contains(low, "secret123") || strings.Contains(low, "hdrtail9") || strings.Contains(low, "sechead7") {
			t.Errorf("echo %q: %s", echo, s)
		}
	}
}
