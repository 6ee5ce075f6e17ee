package transport

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/option"
)

// A 2xx body of JSON white space only ("\n", as many servers end a bodyless
// answer) succeeds when streamed without WithResponseInto ("an empty body
// leaves out as it is"), but fails with "unexpected end of JSON input" when
// the same body comes with a Content-Length, or when the caller merely asks
// for the response's metadata with WithResponseInto. A metadata-only option
// (and the framing of the response) must not change a call's outcome.
func TestBlankBodySameEverywhere(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		length int64
		keep   bool
	}{
		{"streamed", -1, false},
		{"streamed, WithResponseInto", -1, true},
		{"Content-Length", 1, false},
		{"Content-Length, WithResponseInto", 1, true},
	} {
		rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
				Body: io.NopCloser(strings.NewReader("\n")), ContentLength: tc.length, Request: r}, nil
		})
		tr, _ := newTestTransport(t, rt, func(c *Config) { c.MaxRetries = 0 })
		ctx := context.Background()
		var meta option.Response
		if tc.keep {
			ctx = WithOptions(ctx, []option.RequestOption{option.WithResponseInto(&meta)})
		}
		var out map[string]any
		if err := tr.Do(ctx, &Request{Method: http.MethodDelete, Route: "/x", Class: Write}, &out); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// An empty or blank 2xx body that declares a type other than JSON (a
// captive portal's 200 text/html) is the not-JSON error however it is
// framed or read; one that declares JSON, even with a malformed parameter,
// or no type, leaves the result as it is.
func TestBlankBodyNotJSONEverywhere(t *testing.T) {
	t.Parallel()
	for _, ct := range []string{"text/html; charset=utf-8", "application/json; charset", ""} {
		for _, tc := range []struct {
			name   string
			body   string
			length int64
			keep   bool
		}{
			{"streamed", "", -1, false},
			{"sized blank", "\n", 1, false},
			{"WithResponseInto", "", 0, true},
		} {
			rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				h := http.Header{}
				if ct != "" {
					h.Set("Content-Type", ct)
				}
				return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(strings.NewReader(tc.body)),
					ContentLength: tc.length, Request: r}, nil
			})
			tr, _ := newTestTransport(t, rt, func(c *Config) { c.MaxRetries = 0 })
			ctx := context.Background()
			if tc.keep {
				ctx = WithOptions(ctx, []option.RequestOption{option.WithResponseInto(&option.Response{})})
			}
			var out map[string]any
			err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/x", Class: Read}, &out)
			if html := strings.HasPrefix(ct, "text/html"); html != (err != nil) || html && !strings.Contains(err.Error(), "not JSON") {
				t.Errorf("%q, %s: %v; want the not-JSON error exactly for text/html", ct, tc.name, err)
			}
		}
	}
}
