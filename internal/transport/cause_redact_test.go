package transport

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// A RoundTripper whose error names the request URL (a tracing or logging
// wrapper, httpmock's "no responder found despite <url>") puts the key a
// caller pasted as an id into the error text and the debug log: Do redacts
// its own path but not the cause it wraps. docs/sdk.md: "Error text never
// contains the API key"; Do: "a caller who pasted the key as an id ... must
// not see it echoed there".
func TestRoundTripperErrorHidesKeyInPath(t *testing.T) {
	t.Parallel()
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return nil, fmt.Errorf("tracing transport: %s %s: %w", r.Method, r.URL, errors.New("connection reset by peer"))
	})
	var logs bytes.Buffer
	tr, _ := newTestTransport(t, rt, func(c *Config) {
		c.MaxRetries = 1
		c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/envs/{id}", Params: []string{testKey}, Class: Read}, nil)
	if err == nil {
		t.Fatal("no error")
	}
	if strings.Contains(err.Error(), testKey) {
		t.Errorf("error text shows the key: %v", err)
	}
	if strings.Contains(logs.String(), testKey) {
		t.Errorf("debug log shows the key:\n%s", logs.String())
	}
}

// Same with a minted upload URL (Request.URL): its doc promises "the URL's
// capability token never appears" in errors and logs.
func TestRoundTripperErrorHidesUploadToken(t *testing.T) {
	t.Parallel()
	const token = "CAPTOKEN123"
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return nil, fmt.Errorf("tracing transport: %s %s: %w", r.Method, r.URL, errors.New("connection reset by peer"))
	})
	var logs bytes.Buffer
	tr, _ := newTestTransport(t, rt, func(c *Config) {
		c.MaxRetries = 0
		c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	err := tr.Do(t.Context(), &Request{Method: http.MethodPut, Route: "/artifacts/upload",
		URL: "https://uploads.example.test/bucket/obj?sig=" + token, RawBody: []byte("x"), Public: true, Class: Idempotent}, nil)
	if err == nil {
		t.Fatal("no error")
	}
	if strings.Contains(err.Error(), token) || strings.Contains(logs.String(), token) {
		t.Errorf("capability token shows:\nerr: %v\nlog: %s", err, logs.String())
	}
}
