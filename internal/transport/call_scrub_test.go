package transport

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// errorQuoting is a transport whose every answer is a 400 envelope whose
// message, a detail and request id quote spelt (the body's JSON escaping
// it once more, so the decoded text holds spelt as given).
func errorQuoting(spelt string) roundTripFunc {
	return func(r *http.Request) (*http.Response, error) {
		body, err := json.Marshal(map[string]any{"code": "VALIDATION_ERROR", "message": "bad " + spelt + " end",
			"details": map[string]any{"got": []string{spelt}}})
		if err != nil {
			return nil, err
		}
		return jsonAnswer(r, http.StatusBadRequest, string(body), http.Header{RequestIDHeader: {"req " + spelt}}), nil
	}
}

// One call's secret values (the key, the request's Secrets, the credential
// headers' values) are matched together in the text as given: one found
// inside another's escaped spelling hides none of it, in the message, a
// detail, the request id and WithResponseInto's, and the leftmost match's
// marker stands for both.
func TestCallSecretsMatchedTogether(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		header  string   // the client's X-Proxy-Token
		secrets []string // the request's Secrets
		spelt   string   // what the service quotes
		marker  string
	}{
		{"key inside a header value's %2F spelling", "proxy-secret-part/" + testKey, nil,
			url.QueryEscape("proxy-secret-part/" + testKey), headerMarker},
		{"key inside a request secret's %2F spelling", "", []string{"req-secret-value/" + testKey},
			url.QueryEscape("req-secret-value/" + testKey), secretMarker},
		{"request secret inside a header value's %2F spelling", "hdr-secret-part/req-secret-0123", []string{"req-secret-0123"},
			url.QueryEscape("hdr-secret-part/req-secret-0123"), headerMarker},
		{"header value inside a request secret's \\u spelling", "hdr-secret-0123", []string{"req-secret-part/hdr-secret-0123"},
			`req-secret-part\u002fhdr-secret-0123`, secretMarker},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var hdr http.Header
			if c.header != "" {
				hdr = http.Header{"X-Proxy-Token": {c.header}}
			}
			tr, _ := newTestTransport(t, errorQuoting(c.spelt), func(cfg *Config) { cfg.MaxRetries = 0; cfg.Header = hdr })
			var meta option.Response
			ctx := WithOptions(t.Context(), []option.RequestOption{option.WithResponseInto(&meta)})
			err := tr.Do(ctx, &Request{Method: http.MethodPost, Route: "/x", Body: struct{}{}, Class: Write,
				Secrets: c.secrets, Scrub: wire.SecretFields}, &struct{}{})
			e, ok := errors.AsType[*shared.Error](err)
			if !ok || e.Code != shared.CodeValidation {
				t.Fatalf("not the envelope's error: %v", err)
			}
			if want := "bad " + c.marker + " end"; e.Message != want {
				t.Errorf("Message = %q, want %q", e.Message, want)
			}
			for what, got := range map[string]string{
				"detail":                      fmt.Sprint(e.Details["got"]),
				"request id":                  e.RequestID,
				"WithResponseInto request id": meta.RequestID,
				"error text":                  err.Error(),
			} {
				if leaked(got, c.header, testKey, c.secrets) {
					t.Errorf("%s %q keeps part of a secret", what, got)
				}
			}
		})
	}
}

// A network failure's text that quotes a header value whose escaped
// spelling holds the key hides all of it.
func TestCallSecretsMatchedTogetherInNetworkFailure(t *testing.T) {
	t.Parallel()
	v := "proxy-secret-part/" + testKey
	errNet := errors.New("network down")
	rt := roundTripFunc(func(*http.Request) (*http.Response, error) {
		return nil, fmt.Errorf("proxy refused %s: %w", url.QueryEscape(v), errNet)
	})
	err := doWith(t, rt, http.Header{"X-Proxy-Token": {v}})
	if !errors.Is(err, errNet) || !strings.Contains(err.Error(), "proxy refused REDACTED: network down") {
		t.Errorf("network failure shows %q", err)
	}
}

// leaked reports whether s holds 8 consecutive bytes of the header value,
// the key or a secret.
func leaked(s, header, key string, secrets []string) bool {
	for _, v := range append([]string{header, key}, secrets...) {
		for i := 0; i+8 <= len(v); i++ {
			if strings.Contains(s, v[i:i+8]) {
				return true
			}
		}
	}
	return false
}

// A 4-7 byte request secret glued to the key or a minted upload URL,
// before or after it, is taken out with it, in the message, a detail and
// the request id: the neighbour's match is the secret's token edge. The
// raw body loses the key or the URL first, so the secret goes with it
// there; left to the decoded text, it would stand glued to a marker
// ("PIN9sk_***", "REDACTEDPIN9") and no longer be found. The URL's marker
// ends in a letter, so the case after it cannot pass by the key marker's
// trailing '*'.
func TestCallShortSecretGluedToMatch(t *testing.T) {
	const upload = "https://uploads.example.test/u/obj-token"
	for _, c := range []struct {
		name, spelt, url string
	}{
		{"after the key", testKey + "PIN9", ""},
		{"before the key", "PIN9" + testKey, ""},
		{"after a minted URL", upload + "PIN9", upload},
		{"before a minted URL", "PIN9" + upload, upload},
	} {
		tr, _ := newTestTransport(t, errorQuoting(c.spelt), func(cfg *Config) { cfg.MaxRetries = 0 })
		req := &Request{Method: http.MethodPost, Route: "/x", Body: struct{}{}, Class: Write, Secrets: []string{"PIN9"}}
		if c.url != "" {
			req = &Request{Method: http.MethodPut, Route: "/upload", URL: c.url, RawBody: []byte("x"), Public: true,
				Class: Idempotent, Secrets: []string{"PIN9"}}
		}
		err := tr.Do(t.Context(), req, nil)
		e, ok := errors.AsType[*shared.Error](err)
		if !ok {
			t.Fatalf("%s: not a *shared.Error: %v", c.name, err)
		}
		if shown := fmt.Sprint(e.Message, e.Details, e.RequestID, err); strings.Contains(shown, "PIN9") {
			t.Errorf("%s: short secret left: %s", c.name, shown)
		}
	}
}

// A credential header value that begins with the key: its match and the
// key's start together, and the raw body loses both at once, so no tail
// of the header value is left next to the key's marker, where the decoded
// text's Scrub could no longer find the value.
func TestCallHeaderValueStartingWithKey(t *testing.T) {
	const tail = "/proxy-tail-0123456789"
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		body := `{"code":"VALIDATION_ERROR","message":"bad token ` + testKey + tail + ` end"}`
		return jsonAnswer(r, http.StatusBadRequest, body, nil), nil
	})
	tr, _ := newTestTransport(t, rt, func(cfg *Config) {
		cfg.MaxRetries = 0
		cfg.Header = http.Header{"X-Proxy-Token": {testKey + tail}}
	})
	err := tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/x", Body: struct{}{}, Class: Write}, &struct{}{})
	if err == nil || strings.Contains(err.Error(), "proxy-tail") {
		t.Errorf("header value's tail left: %v", err)
	}
}

// A billing refusal in the legacy form is read from text cleaned of the
// request's own secrets alone: a credential header's value written with
// quotes, echoed in the refusal's JSON, no longer breaks that JSON (and
// loses the billing fields) before it is read; the message shown is
// still cleaned of it.
func TestLegacyBillingReadBeforeHeaderValues(t *testing.T) {
	const hdr = `"proxy-0123456789"`
	inner := `{"code":"billing_limit_reached","message":"limit for \"proxy-0123456789\"","token":` + hdr +
		`,"gateKey":"maxEvalIterationsPerMonth","currentValue":5001,"allowedValue":5000}`
	e := legacyCall(t, "Uncaught ConvexError: "+inner, hdr)
	if e.Code != shared.CodeBillingLimitReached || e.Billing == nil {
		t.Fatalf("not a billing refusal: %v", e)
	}
	if e.Billing.GateKey != "maxEvalIterationsPerMonth" || e.Billing.CurrentValue != 5001 || e.Billing.AllowedValue != 5000 {
		t.Errorf("billing fields lost: %+v", *e.Billing)
	}
	if strings.Contains(e.Message, "proxy-0123456789") || e.Message != "limit for "+headerMarker {
		t.Errorf("message %q, want the header value replaced", e.Message)
	}
}

// Legacy text that is no billing refusal is cleaned of every value at
// once, credential headers' with the request's secrets, before a line of
// it is kept: a request secret inside a header value's %2F spelling
// leaves nothing of either (cleaned of the secret first, the header
// value's tail stayed).
func TestLegacyTextCleanedOfEveryValue(t *testing.T) {
	const secret = "request-secret-123"
	const hdr = secret + "/tail-of-the-proxy-token"
	e := legacyCall(t, "Uncaught Error: bad token "+url.QueryEscape(hdr)+"\n    at x.ts:1", hdr, secret)
	if e.Message != "Uncaught Error: bad token "+headerMarker {
		t.Errorf("legacy text: %v", e)
	}
}

// legacyProxyToken is the credential header value the legacy billing
// tests send under X-Proxy-Token.
const legacyProxyToken = "proxytok-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// legacyAnswer is the *shared.Error of a call sending legacyProxyToken,
// answered with a legacy {ok: false, error: errText} body.
func legacyAnswer(t *testing.T, errText string) *shared.Error {
	t.Helper()
	return legacyCall(t, errText, legacyProxyToken)
}

// legacyCall is the *shared.Error of a legacy call sending hdr under
// X-Proxy-Token, with secrets as its request's Secrets, answered with a
// legacy {ok: false, error: errText} body.
func legacyCall(t *testing.T, errText, hdr string, secrets ...string) *shared.Error {
	t.Helper()
	body, err := json.Marshal(map[string]any{"ok": false, "error": errText})
	if err != nil {
		t.Fatal(err)
	}
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return jsonAnswer(r, http.StatusBadRequest, string(body), nil), nil
	})
	tr, _ := newTestTransport(t, rt, func(cfg *Config) {
		cfg.MaxRetries = 0
		cfg.Header = http.Header{"X-Proxy-Token": {hdr}}
	})
	err = tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/x", Body: struct{}{}, Class: Write,
		Legacy: true, Secrets: secrets}, &struct{}{})
	e, ok := errors.AsType[*shared.Error](err)
	if !ok {
		t.Fatalf("not a *shared.Error: %v", err)
	}
	return e
}

// Every string read from a legacy billing refusal's payload is cleaned of
// every value: the gate key too, though the payload is read from text
// cleaned of the call's own secrets alone.
func TestLegacyBillingGateKeyCleanedOfHeaderValue(t *testing.T) {
	inner := `{"code":"billing_limit_reached","message":"limit","gateKey":"` + legacyProxyToken + `","currentValue":1,"allowedValue":1}`
	e := legacyAnswer(t, "Uncaught ConvexError: "+inner)
	if e.Billing == nil {
		t.Fatalf("no billing: %v", e)
	}
	if e.Billing.GateKey != headerMarker {
		t.Errorf("Billing.GateKey = %q, want the header value replaced", e.Billing.GateKey)
	}
}

// A legacy billing message is cleaned before it is cut to
// apierr.MaxLegacyMessage: a header value straddling the cut leaves no
// head behind.
func TestLegacyBillingMessageCleanedBeforeCut(t *testing.T) {
	msg := strings.Repeat("x", 500) + " " + legacyProxyToken
	inner, err := json.Marshal(map[string]any{"code": "billing_limit_reached", "message": msg, "gateKey": "g"})
	if err != nil {
		t.Fatal(err)
	}
	e := legacyAnswer(t, "Uncaught ConvexError: "+string(inner))
	if want := strings.Repeat("x", 500) + " " + headerMarker; e.Message != want {
		t.Errorf("message ends %q, want %q", e.Message[490:], want[490:])
	}
}

// The billing payload's own JSON escapes can spell the key where the text
// it is read from shows none (\u0073k_…): decoding the payload brings the
// key back, so its strings are cleaned once read, with no header value
// configured too.
func TestLegacyBillingPayloadEscapedKey(t *testing.T) {
	escaped := `\u00` + fmt.Sprintf("%x", testKey[0]) + testKey[1:]
	inner := `{"code":"billing_limit_reached","message":"bad ` + escaped + `","gateKey":"` + escaped + `"}`
	body, err := json.Marshal(map[string]any{"ok": false, "error": "Uncaught ConvexError: " + inner})
	if err != nil {
		t.Fatal(err)
	}
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return jsonAnswer(r, http.StatusBadRequest, string(body), nil), nil
	})
	tr, _ := newTestTransport(t, rt, func(cfg *Config) { cfg.MaxRetries = 0 })
	err = tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/x", Body: struct{}{}, Class: Write, Legacy: true}, &struct{}{})
	e, ok := errors.AsType[*shared.Error](err)
	if !ok || e.Billing == nil {
		t.Fatalf("not a billing refusal: %v", err)
	}
	if e.Message != "bad "+keyMarker || e.Billing.GateKey != keyMarker {
		t.Errorf("message %q, gate key %q: want the key replaced", e.Message, e.Billing.GateKey)
	}
}
