package transport

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
)

// dnsFailing is an *http.Transport whose every dial fails as the resolver
// fails on a name it does not know, with the error net/http's dialer
// returns then.
func dnsFailing() *http.Transport {
	return &http.Transport{DialContext: func(_ context.Context, network, addr string) (net.Conn, error) {
		host, _, _ := net.SplitHostPort(addr)
		return nil, &net.OpError{Op: "dial", Net: network,
			Err: &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}}
	}}
}

// A failed lookup gets the text Config.LookupHint gives for its host, after
// the cause's; errors.As still reaches the *net.DNSError. A host it gives
// no text for, or no LookupHint at all, adds nothing.
func TestLookupHint(t *testing.T) {
	t.Parallel()
	hint := func(host string) string {
		if host == "inproc.example" {
			return "use the in-process transport"
		}
		return ""
	}
	for _, tc := range []struct {
		name, base string
		hint       func(string) string
		want       string
	}{
		{"hinted host", "http://inproc.example/api/v1", hint,
			"projectops: GET /things: dial tcp: lookup inproc.example: no such host (use the in-process transport)"},
		{"other host", "http://other.example/api/v1", hint, "projectops: GET /things: dial tcp: lookup other.example: no such host"},
		{"no LookupHint", "http://inproc.example/api/v1", nil, "projectops: GET /things: dial tcp: lookup inproc.example: no such host"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tr := New(Config{BaseURL: tc.base, HTTPClient: &http.Client{Transport: dnsFailing()}, LookupHint: tc.hint})
			err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/things", Public: true, Class: Read}, nil)
			if err == nil || err.Error() != tc.want {
				t.Errorf("err = %v; want %q", err, tc.want)
			}
			if de, ok := errors.AsType[*net.DNSError](err); !ok || !de.IsNotFound {
				t.Errorf("errors.As(*net.DNSError) on %v: %v, %v; want a not-found DNSError", err, de, ok)
			}
		})
	}
}

// A network failure that is not a lookup gets no hint, even on the host
// the hint is for: the name resolved, so the hint's advice is not the fix.
func TestLookupHintOnlyForLookups(t *testing.T) {
	t.Parallel()
	refused := roundTripFunc(func(*http.Request) (*http.Response, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}
	})
	tr := New(Config{BaseURL: "http://inproc.example/api/v1", HTTPClient: &http.Client{Transport: refused},
		LookupHint: func(string) string { return "HINT" }})
	err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/things", Public: true, Class: Read}, nil)
	if err == nil || strings.Contains(err.Error(), "HINT") {
		t.Errorf("err = %v; want a refusal without the lookup hint", err)
	}
}
