package transport

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// tracedBody is a response body as a tracing/logging RoundTripper wraps it:
// a read failure names the request's URL (the same wrapper b8138c6's
// causeError guards against for RoundTrip's own error).
type tracedBody struct {
	r    io.Reader
	url  string
	fail error
}

func (b *tracedBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF {
		return n, fmt.Errorf("tracing transport: reading body of %s: %w", b.url, b.fail)
	}
	return n, err
}
func (b *tracedBody) Close() error { return nil }

func tracedRT(status int, body string) roundTripFunc {
	return func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
			Body:          &tracedBody{r: strings.NewReader(body), url: r.URL.String(), fail: errors.New("connection reset by peer")},
			ContentLength: -1, Request: r}, nil
	}
}

// b8138c6 added "error body cut short: <read error>" to a non-envelope
// error's message, passing the read error through Redact (the key) only:
// on a minted upload URL (Request.URL, "the URL's capability token never
// appears" in errors and logs) a read error naming the URL puts the token
// into Error.Message and err.Error().
func TestCutErrorBodyHidesUploadToken(t *testing.T) {
	t.Parallel()
	const token = "CAPTOKEN123"
	tr, _ := newTestTransport(t, tracedRT(http.StatusForbidden, `{"code":"FORB`), func(c *Config) { c.MaxRetries = 0 })
	err := tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/eval-ingest/upload",
		URL: "https://uploads.example.test/eval-ingest-uploads/" + token + "?sig=" + token, RawBody: []byte("x"),
		Public: true, Class: Write}, nil)
	if err == nil {
		t.Fatal("no error")
	}
	if strings.Contains(err.Error(), token) {
		t.Errorf("capability token shows in the cut-short error body message:\n%v", err)
	}
}

// A 2xx body cut short by the same kind of failure: bodyReadError wraps
// the read error's text unredacted, so the key a caller pasted as an id
// (Do: "must not see it echoed there"; docs/sdk.md: "Error text never
// contains the API key") and a minted upload URL's token show, while the
// same failure in RoundTrip is cleaned by causeError.
func TestCutSuccessBodyHidesKeyAndToken(t *testing.T) {
	t.Parallel()
	t.Run("key as id", func(t *testing.T) {
		var logs bytes.Buffer
		tr, _ := newTestTransport(t, tracedRT(http.StatusOK, `{"a":`), func(c *Config) {
			c.MaxRetries = 1
			c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		})
		var out map[string]any
		err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/envs/{id}", Params: []string{testKey}, Class: Read}, &out)
		if err == nil {
			t.Fatal("no error")
		}
		if strings.Contains(err.Error(), testKey) {
			t.Errorf("error text shows the key:\n%v", err)
		}
	})
	t.Run("upload token", func(t *testing.T) {
		const token = "CAPTOKEN456"
		tr, _ := newTestTransport(t, tracedRT(http.StatusOK, `{"storageId":`), func(c *Config) { c.MaxRetries = 0 })
		var out map[string]any
		err := tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/eval-ingest/upload",
			URL: "https://uploads.example.test/eval-ingest-uploads/" + token, RawBody: []byte("x"), Public: true, Class: Write}, &out)
		if err == nil {
			t.Fatal("no error")
		}
		if strings.Contains(err.Error(), token) {
			t.Errorf("capability token shows:\n%v", err)
		}
	})
}

// decodeError redacts a reflected key from an error envelope ("A gateway
// may reflect the key into the envelope's message") but not a minted
// upload URL's token: a gateway (or storage front) that names the request
// URI in its JSON error puts the capability into Error.Message, though
// Request.URL promises "the URL's capability token never appears" in
// errors; b8138c6 cleans the URL from RoundTrip's errors only.
func TestUploadEnvelopeHidesToken(t *testing.T) {
	t.Parallel()
	const token = "CAPTOKEN789"
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		body := fmt.Sprintf(`{"code":"NOT_FOUND","message":"no route for %s %s"}`, r.Method, r.URL.RequestURI())
		return &http.Response{StatusCode: http.StatusNotFound, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
	})
	tr, _ := newTestTransport(t, rt, func(c *Config) { c.MaxRetries = 0 })
	err := tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/eval-ingest/upload",
		URL: "https://uploads.example.test/eval-ingest-uploads/" + token, RawBody: []byte("x"), Public: true, Class: Write}, nil)
	if err == nil {
		t.Fatal("no error")
	}
	if strings.Contains(err.Error(), token) {
		t.Errorf("capability token shows in the decoded error envelope:\n%v", err)
	}
}
