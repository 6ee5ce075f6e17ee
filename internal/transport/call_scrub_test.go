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
