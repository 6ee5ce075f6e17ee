package transport

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// Every field of an error built from a response is cleaned with the same
// set of secrets as its message: the key and the request's own (Scrub).
// A gateway may reflect either into any header, the request id and the
// content type among them.
func TestReflectedSecretHiddenEverywhere(t *testing.T) {
	t.Parallel()
	const secret = "reqsecret0123456789"
	scrub := func(s string) string { return strings.ReplaceAll(s, secret, "***") }
	for _, tc := range []struct {
		name   string
		status int
		ct     string
	}{
		{"redirect", http.StatusFound, "text/html"},
		{"non-envelope error", http.StatusBadGateway, "text/" + secret},
		{"envelope error", http.StatusBadRequest, "application/json"},
		{"success not JSON", http.StatusOK, "text/" + secret},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				body := `<html>` + secret
				if tc.ct == "application/json" {
					body = `{"code":"VALIDATION_ERROR","message":"bad"}`
				}
				return &http.Response{StatusCode: tc.status, Header: http.Header{"Content-Type": {tc.ct},
					"X-Request-Id": {"req_" + secret}, "Location": {"/elsewhere"}},
					Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
			})
			tr, _ := newTestTransport(t, rt, func(c *Config) { c.MaxRetries = 0 })
			var out struct{}
			err := tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/x", Body: struct{}{}, Class: Write, Scrub: scrub}, &out)
			if err == nil {
				t.Fatal("no error")
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("the request's secret shows: %v", err)
			}
			if e, ok := err.(*shared.Error); ok && strings.Contains(e.RequestID, secret) {
				t.Errorf("RequestID shows the request's secret: %q", e.RequestID)
			}
		})
	}
}

// A credential header's value of the client's or the call's (WithHeader,
// a proxy's token say) that a service or a gateway quotes back, as written
// or escaped, is taken out of the error text, the request id, the error's
// metadata headers and a network failure's text, as the key is; another
// header's value ("fast") is left.
func TestReflectedHeaderValueHidden(t *testing.T) {
	t.Parallel()
	const clientVal, callVal = "HEADER-SECRET-9", "call/secret 42"
	quote := func(r *http.Request) string {
		return r.Header.Get("X-Proxy-Token") + " " + r.Header.Get("X-Call-Token") + " " +
			url.QueryEscape(r.Header.Get("X-Call-Token")) + " " + r.Header.Get("X-Mode")
	}
	for _, tc := range []struct {
		name string
		rt   roundTripFunc
	}{
		{"envelope error", func(r *http.Request) (*http.Response, error) {
			q, _ := json.Marshal(quote(r))
			body := `{"code":"VALIDATION_ERROR","message":` + string(q) + `,"details":{"got":"` + strings.ReplaceAll(r.Header.Get("X-Call-Token"), "/", `\/`) + `"}}`
			return &http.Response{StatusCode: http.StatusBadRequest, Header: http.Header{"Content-Type": {"application/json"},
				"X-Request-Id": {quote(r)}, "X-Echo": {quote(r)}},
				Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
		}},
		{"network failure", func(r *http.Request) (*http.Response, error) {
			return nil, errors.New("proxy refused " + quote(r))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tr, _ := newTestTransport(t, tc.rt, func(c *Config) {
				c.MaxRetries = 0
				c.Header = http.Header{"X-Proxy-Token": {clientVal}, "X-Mode": {"fast"}}
			})
			var meta option.Response
			ctx := WithOptions(t.Context(), []option.RequestOption{option.WithHeader("X-Call-Token", callVal), option.WithResponseInto(&meta)})
			err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/x", Class: Read}, &struct{}{})
			if err == nil {
				t.Fatal("no error")
			}
			shown := err.Error()
			if e, ok := errors.AsType[*shared.Error](err); ok {
				shown += fmt.Sprint(" ", e.RequestID, e.Details)
			}
			shown += fmt.Sprint(" ", meta.Header)
			for _, v := range []string{"SECRET", "secret", url.QueryEscape(callVal), `call\/`} {
				if strings.Contains(shown, v) {
					t.Errorf("%q shows in %s", v, shown)
				}
			}
			if !strings.Contains(err.Error(), "fast") {
				t.Errorf("a short header value was taken out too: %v", err)
			}
		})
	}
}
