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

	"github.com/projectops/projectops-go/shared"
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

// A service error that quotes a tunnel URL (a server operation's failure
// naming the saved server's URL) keeps its ?k= secret out of the error's
// text, message, details and %#v, whatever its position or case; a request
// id header that echoes the key is cleaned too.
func TestErrorTextHidesTunnelSecret(t *testing.T) {
	t.Parallel()
	const secret = "tunnelsecret123"
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		body := `{"code":"VALIDATION_ERROR","message":"url https://x.tunnels.example/api/mcp/adapter-http/srv?k=` + secret +
			` failed; also ?a=1&k=` + secret + `#frag and ?K=` + secret + `","details":{"url":"https://x.example/p?k=` + secret +
			`","upstream":"{\"error\":\"GET https://h/mcp?a=1\\u0026k=` + secret + `\"}"}}`
		return &http.Response{StatusCode: 400, Header: http.Header{"Content-Type": {"application/json"}, "X-Request-Id": {"req_" + testKey}},
			Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
	})
	tr, _ := newTestTransport(t, rt)
	err := tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/x", Body: struct{}{}, Class: Write}, nil)
	e, ok := errors.AsType[*shared.Error](err)
	if !ok {
		t.Fatalf("err = %v", err)
	}
	for _, shown := range []string{err.Error(), fmt.Sprintf("%v %+v %#v", err, err, e), e.Message, fmt.Sprint(e.Details)} {
		if strings.Contains(shown, secret) || strings.Contains(shown, testKey) {
			t.Errorf("a secret shows: %s", shown)
		}
	}
	if !strings.Contains(e.Message, "?k=REDACTED") {
		t.Errorf("message %q: the URL is no longer recognisable", e.Message)
	}
}
