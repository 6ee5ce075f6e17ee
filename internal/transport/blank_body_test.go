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
