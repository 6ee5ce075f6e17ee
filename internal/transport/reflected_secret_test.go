package transport

import (
	"io"
	"net/http"
	"strings"
	"testing"

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
