package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/shared"
)

// Test fixtures shared by the transport tests. The base URL has a path in
// front of /api/v1, like a deployment behind a prefix, so a join that loses
// it is caught.
const (
	testKey  = "sk_test_SECRET123"
	testBase = "https://api.example.test/base/api/v1"
)

// sleeps replaces Transport.sleep: it records every requested delay and
// returns at once (or with the context's error).
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// newTestTransport builds a Transport over rt with three retries, a 100ms to
// 1s backoff and a recording sleep. mods adjust the Config first.
func newTestTransport(t *testing.T, rt http.RoundTripper, mods ...func(*Config)) (*Transport, *sleeps) {
	t.Helper()
	cfg := Config{
		BaseURL:    testBase,
		APIKey:     testKey,
		HTTPClient: &http.Client{Transport: rt},
		MaxRetries: 3,
		BaseDelay:  100 * time.Millisecond,
		MaxDelay:   time.Second,
		UserAgent:  "projectops-go/test",
	}
	for _, m := range mods {
		m(&cfg)
	}
	tr := New(cfg)
	s := &sleeps{}
	tr.sleep = s.sleep
	return tr, s
}

// seenRequest is what a scripted server saw of one attempt.
type seenRequest struct {
	Method, Path, Query string
	Header              http.Header
	Body                string
}

// reply is one scripted answer: a status with a body and headers, or a
// transport error.
type reply struct {
	status int
	body   string
	header map[string]string
	err    error
}

func status(code int) reply { return reply{status: code} }

func envelope(code int, c shared.Code) reply {
	return reply{status: code, body: fmt.Sprintf(`{"code":%q,"message":"scripted %s"}`, c, c)}
}

// script answers requests from replies in order (the last one repeats) and
// records what it saw. Every reply carries x-request-id "req-N".
type script struct {
	mu      sync.Mutex
	replies []reply
	seen    []seenRequest
}

func (s *script) respond(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
	}
	s.mu.Lock()
	s.seen = append(s.seen, seenRequest{
		Method: req.Method, Path: req.URL.EscapedPath(), Query: req.URL.RawQuery,
		Header: req.Header.Clone(), Body: string(body),
	})
	n := len(s.seen)
	r := s.replies[min(n, len(s.replies))-1]
	s.mu.Unlock()
	if r.err != nil {
		return nil, r.err
	}
	resp := httpmock.NewStringResponse(r.status, r.body)
	resp.Header.Set("X-Request-Id", fmt.Sprintf("req-%d", n))
	for k, v := range r.header {
		resp.Header.Set(k, v)
	}
	return resp, nil
}

func (s *script) requests() []seenRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seenRequest(nil), s.seen...)
}

// mockRoute registers a scripted responder for method and route (relative
// to testBase) on a fresh httpmock transport; any other request fails the
// test.
func mockRoute(t *testing.T, method, route string, replies ...reply) (*httpmock.MockTransport, *script) {
	t.Helper()
	mock := httpmock.NewMockTransport()
	s := &script{replies: replies}
	mock.RegisterResponder(method, testBase+route, s.respond)
	mock.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		t.Errorf("unexpected request %s %s", req.Method, req.URL)
		return httpmock.NewStringResponse(http.StatusTeapot, ""), nil
	})
	return mock, s
}

// roundTripFunc is a func-based http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestNewDefaults(t *testing.T) {
	t.Parallel()
	tr := New(Config{BaseURL: testBase + "//", APIKey: testKey})
	if tr.BaseURL() != testBase {
		t.Errorf("BaseURL() = %q, want trailing slashes trimmed", tr.BaseURL())
	}
	// The default client is copied (for its redirect policy), never changed.
	if tr.client.Transport != http.DefaultClient.Transport || http.DefaultClient.CheckRedirect != nil ||
		tr.log == nil || tr.sleep == nil {
		t.Errorf("New left client %v, log %v or sleep unset", tr.client, tr.log)
	}
	got := []time.Duration{tr.baseDelay, tr.maxDelay, tr.maxRA}
	if diff := cmp.Diff([]time.Duration{DefaultBaseDelay, DefaultMaxDelay, DefaultMaxRetryAfter}, got); diff != "" {
		t.Errorf("default delays (-want +got):\n%s", diff)
	}
	if !tr.HasKey() || New(Config{}).HasKey() {
		t.Error("HasKey wrong")
	}

	tr = New(Config{BaseDelay: 2 * time.Second, MaxDelay: time.Second, MaxRetryAfter: -1})
	if tr.maxDelay != 2*time.Second {
		t.Errorf("maxDelay below baseDelay not raised: %s", tr.maxDelay)
	}
	if tr.maxRA != 0 {
		t.Errorf("negative MaxRetryAfter gave %s, want 0 (wait for none)", tr.maxRA)
	}
}

func TestClassString(t *testing.T) {
	t.Parallel()
	got := []string{Read.String(), Write.String(), Idempotent.String(), Class(42).String()}
	if diff := cmp.Diff([]string{"read", "write", "idempotent", "unknown"}, got); diff != "" {
		t.Errorf("Class.String (-want +got):\n%s", diff)
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	tr := New(Config{APIKey: testKey})
	if got := tr.Redact("Bearer " + testKey + " and " + testKey); got != "Bearer sk_*** and sk_***" {
		t.Errorf("Redact = %q", got)
	}
	if got := New(Config{}).Redact("sk_test_other"); got != "sk_test_other" {
		t.Errorf("Redact without key changed text: %q", got)
	}
}

func TestHeaders(t *testing.T) {
	t.Parallel()
	mock, s := mockRoute(t, http.MethodPost, "/things", status(503), status(503), reply{status: 200, body: `{}`})
	tr, _ := newTestTransport(t, mock)
	err := tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/things", Body: map[string]int{"a": 1}, Class: Idempotent}, nil)
	if err != nil {
		t.Fatal(err)
	}
	reqs := s.requests()
	if len(reqs) != 3 {
		t.Fatalf("attempts = %d, want 3", len(reqs))
	}
	for i, r := range reqs {
		want := map[string]string{
			"Authorization": "Bearer " + testKey,
			"Content-Type":  "application/json",
			"Accept":        "application/json",
			"User-Agent":    "projectops-go/test",
		}
		got := map[string]string{}
		for k := range want {
			got[k] = r.Header.Get(k)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("attempt %d headers (-want +got):\n%s", i+1, diff)
		}
		if _, ok := r.Header[IdempotencyHeader]; ok {
			t.Errorf("attempt %d: Idempotency-Key sent without being asked for", i+1)
		}
	}

	// A bodyless GET carries no Content-Type.
	mock, s = mockRoute(t, http.MethodGet, "/me", reply{status: 200, body: `{}`})
	tr, _ = newTestTransport(t, mock)
	if err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/me"}, nil); err != nil {
		t.Fatal(err)
	}
	if ct := s.requests()[0].Header.Get("Content-Type"); ct != "" {
		t.Errorf("GET without body sent Content-Type %q", ct)
	}
}

func TestPublicRequest(t *testing.T) {
	t.Parallel()
	for _, key := range []string{testKey, ""} {
		mock, s := mockRoute(t, http.MethodGet, "/host-catalog", reply{status: 200, body: `{"v":1}`})
		tr, _ := newTestTransport(t, mock, func(c *Config) { c.APIKey = key })
		var out struct{ V int }
		if err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/host-catalog", Public: true}, &out); err != nil {
			t.Fatalf("key %q: %v", key, err)
		}
		if out.V != 1 {
			t.Errorf("key %q: decoded %+v", key, out)
		}
		if h, ok := s.requests()[0].Header["Authorization"]; ok {
			t.Errorf("key %q: public request sent Authorization %q", key, h)
		}
	}
}

func TestNoKey(t *testing.T) {
	t.Parallel()
	mock := httpmock.NewMockTransport()
	tr, _ := newTestTransport(t, mock, func(c *Config) { c.APIKey = "" })
	err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/projects/{projectId}", Params: []string{"p1"}}, nil)
	var e *shared.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want *shared.Error", err)
	}
	want := &shared.Error{Code: shared.CodeUnauthorized, Method: "GET", Path: "/projects/p1",
		Message: "no API key configured: set PROJECTOPS_API_KEY or use option.WithAPIKey"}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	if n := mock.GetTotalCallCount(); n != 0 {
		t.Errorf("sent %d requests without a key", n)
	}
}

func TestStringHidesKey(t *testing.T) {
	t.Parallel()
	// A client's header may carry a secret too (a proxy's token).
	tr := New(Config{BaseURL: testBase, APIKey: testKey, Header: http.Header{"X-Proxy-Token": {"HEADER-SECRET"}}})
	for _, f := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
		if got := fmt.Sprintf(f, tr); strings.Contains(got, "SECRET") || !strings.Contains(got, "key=set") {
			t.Errorf("Sprintf(%s) = %q", f, got)
		}
	}
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("t", "t", tr)
	if got := logged.String(); strings.Contains(got, "SECRET") || !strings.Contains(got, "key=set") {
		t.Errorf("slog JSON = %s", got)
	}
	// A resource service holds the transport in an unexported field, where
	// fmt calls none of its methods; any verb must still not expand the key
	// or the headers.
	type service struct{ t *Transport }
	hexes := []string{fmt.Sprintf("%x", testKey), fmt.Sprintf("%x", "HEADER-SECRET")}
	for _, f := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T"} {
		for _, v := range []any{tr, *tr, service{tr}, &service{tr}, []*Transport{tr}, map[string]any{"t": &service{tr}}} {
			got := fmt.Sprintf(f, v)
			if strings.Contains(got, "SECRET") || strings.Contains(strings.ToLower(got), hexes[0]) || strings.Contains(strings.ToLower(got), hexes[1]) {
				t.Errorf("Sprintf(%s, %T) shows a secret: %s", f, v, got)
			}
		}
	}
	if got := New(Config{BaseURL: testBase}).String(); got != "transport{base="+testBase+" key=none}" {
		t.Errorf("String() without key = %q", got)
	}
}

// A Transport not built by New (&Transport{}, whose state is nil) and a
// nil *Transport answer every exported method without panicking, Do with
// the unconfigured client's VALIDATION_ERROR: only String checked the
// state, so BaseURL, Redact or Do on a &Transport{} read through nil.
func TestUnconfiguredTransport(t *testing.T) {
	t.Parallel()
	for _, tr := range []*Transport{nil, {}} {
		if tr.String() != "transport{unconfigured}" || fmt.Sprintf("%v", tr) == "" || tr.BaseURL() != "" || tr.MaxRetryAfter() != 0 ||
			tr.HasKey() || tr.Redact("x") != "x" || tr.HTTPClient() != nil {
			t.Errorf("%#v: an accessor answers as if configured", tr)
		}
		err := tr.Do(context.Background(), &Request{Method: http.MethodGet, Route: "/x"}, nil)
		if e, ok := errors.AsType[*shared.Error](err); !ok || e.Code != shared.CodeValidation {
			t.Errorf("Do on %#v: %v; want a VALIDATION_ERROR", tr, err)
		}
	}
}

// TestKeyNeverLeaks makes every kind of failure happen and checks that the
// key reaches neither error text (however formatted) nor the debug log.
func TestKeyNeverLeaks(t *testing.T) {
	t.Parallel()
	echo := "Authorization: Bearer " + testKey
	type millisOut struct {
		CreatedAt wire.Millis `json:"createdAt"`
	}
	tests := []struct {
		name  string
		reply reply
		class Class
		out   any
	}{
		{"401 envelope echoing the key", reply{status: 401,
			body: `{"code":"UNAUTHORIZED","message":"bad key ` + testKey + `","details":{"got":"` + echo + `","nested":{"k":["` + testKey + `"]}}}`}, Read, nil},
		{"403 envelope", envelope(403, shared.CodeForbidden), Read, nil},
		{"404 envelope", envelope(404, shared.CodeNotFound), Read, nil},
		{"500 envelope retried", envelope(500, shared.CodeInternal), Read, nil},
		{"502 HTML page echoing headers", reply{status: 502, header: map[string]string{"Content-Type": "text/html; charset=utf-8"},
			body: "<html><body><pre>" + echo + "</pre></body></html>"}, Read, nil},
		{"400 plain text echo", reply{status: 400, body: echo}, Write, nil},
		{"503 truncated JSON echo", reply{status: 503, body: `{"code":"X","message":"` + testKey}, Idempotent, nil},
		{"connection refused", reply{err: &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}}, Read, nil},
		{"connection reset", reply{err: &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}}, Write, nil},
		{"malformed success body echoing the key", reply{status: 200, body: `{"x": ` + testKey + `}`}, Read, &map[string]any{}},
		{"key reflected into a typed field", reply{status: 200, body: `{"createdAt":"` + echo + `"}`}, Read, &millisOut{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var logs bytes.Buffer
			mock, _ := mockRoute(t, http.MethodPost, "/projects/p1/servers/s1/validate", tt.reply)
			tr, _ := newTestTransport(t, mock, func(c *Config) {
				c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			})
			err := tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/projects/{projectId}/servers/{serverId}/validate",
				Params: []string{"p1", "s1"}, Body: map[string]any{}, Class: tt.class}, tt.out)
			if err == nil {
				t.Fatal("Do succeeded, want an error")
			}
			texts := map[string]string{
				"Error()": err.Error(),
				"%v":      fmt.Sprintf("%v", err),
				"%+v":     fmt.Sprintf("%+v", err),
				"%#v":     fmt.Sprintf("%#v", err),
				"log":     logs.String(),
			}
			if e, ok := apierr.As(err); ok {
				texts["%#v of *Error"] = fmt.Sprintf("%#v", e)
				texts["%+v of *Error fields"] = fmt.Sprintf("%+v", *e)
			}
			for what, s := range texts {
				if strings.Contains(s, "SECRET123") {
					t.Errorf("key leaked in %s: %s", what, s)
				}
			}
			if !strings.Contains(logs.String(), "projectops request") {
				t.Errorf("nothing logged at debug level: %q", logs.String())
			}
		})
	}
}

// TestLogging checks what a debug log line holds: the route template, never
// ids, query values or headers.
func TestLogging(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	mock, _ := mockRoute(t, http.MethodGet, "/projects/proj-secret-id/hosts", status(503), reply{status: 200, body: `{}`})
	tr, _ := newTestTransport(t, mock, func(c *Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/projects/{projectId}/hosts",
		Params: []string{"proj-secret-id"}, Query: Query("k", "query-secret-value")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// One line per attempt, and between them the retry with its wait.
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], `msg="projectops retry"`) ||
		!strings.Contains(lines[1], "next_attempt=2") || !strings.Contains(lines[1], "after=backoff") {
		t.Fatalf("log lines = %d, want attempt, retry, attempt:\n%s", len(lines), logs.String())
	}
	if strings.Contains(lines[1], "proj-secret-id") || strings.Contains(lines[1], "query-secret-value") {
		t.Errorf("retry line leaks: %s", lines[1])
	}
	lines = []string{lines[0], lines[2]}
	for i, l := range lines {
		for _, want := range []string{"level=DEBUG", "method=GET", "route=/projects/{projectId}/hosts",
			fmt.Sprintf("attempt=%d", i+1), "duration="} {
			if !strings.Contains(l, want) {
				t.Errorf("line %d lacks %q: %s", i+1, want, l)
			}
		}
		for _, bad := range []string{"query-secret-value", "proj-secret-id", "Bearer", "SECRET123"} {
			if strings.Contains(l, bad) {
				t.Errorf("line %d contains %q: %s", i+1, bad, l)
			}
		}
	}
	if !strings.Contains(lines[0], "status=503") || !strings.Contains(lines[1], "status=200") {
		t.Errorf("statuses not logged:\n%s", logs.String())
	}

	// Nothing is logged above debug level.
	logs.Reset()
	mock, _ = mockRoute(t, http.MethodGet, "/me", reply{status: 200, body: `{}`})
	tr, _ = newTestTransport(t, mock, func(c *Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	})
	if err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/me"}, nil); err != nil {
		t.Fatal(err)
	}
	if logs.Len() != 0 {
		t.Errorf("logged at info level: %s", logs.String())
	}
}

// A key the service reflects JSON-escaped (\u0073k_…) into an error's
// message or details is found after decoding: neither the error's text nor
// its %#v shows it.
func TestRedactEscapedKeyInError(t *testing.T) {
	t.Parallel()
	escaped := `\u0073` + testKey[1:]
	mock, _ := mockRoute(t, http.MethodGet, "/me", reply{status: 401,
		body: `{"code":"UNAUTHORIZED","message":"bad key ` + escaped + `","details":{"got":"` + escaped + `","` + escaped + `":[1,"` + escaped + `"]}}`})
	tr, _ := newTestTransport(t, mock)
	err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/me", Class: Read}, nil)
	var e *shared.Error
	if !errors.As(err, &e) || e.Code != "UNAUTHORIZED" {
		t.Fatalf("err = %v", err)
	}
	for _, out := range []string{err.Error(), fmt.Sprintf("%+v", e), fmt.Sprintf("%#v", e)} {
		if strings.Contains(out, testKey) {
			t.Errorf("the key shows: %s", out)
		}
	}
	if e.Message != "bad key sk_***" || e.Details["got"] != "sk_***" {
		t.Errorf("message %q, details %v", e.Message, e.Details)
	}
}

// A key pasted as a path id (the CLI's ENV_ID, say) is redacted in the
// error and in the debug log of every attempt; the request still goes to
// the id as given.
func TestRedactKeyInPath(t *testing.T) {
	t.Parallel()
	var sent string
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sent = r.URL.Path
		return nil, errors.New("connection refused")
	})
	var logs bytes.Buffer
	tr, _ := newTestTransport(t, rt, func(c *Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		c.MaxRetries = 1
	})
	err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/envs/{id}", Params: []string{testKey}, Class: Read}, nil)
	if err == nil || !strings.Contains(err.Error(), "/envs/sk_***") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), testKey) || strings.Contains(logs.String(), testKey) {
		t.Errorf("the key shows:\nerr %v\nlogs %s", err, logs.String())
	}
	if !strings.HasSuffix(sent, "/envs/"+testKey) {
		t.Errorf("request went to %q", sent)
	}
}

// A type error in a success body reads alike whether the body came with a
// length (decoded in one pass) or streamed (encoding/json's Decoder).
func TestDecodeErrorSameSizedOrStreamed(t *testing.T) {
	t.Parallel()
	var msgs []string
	for _, length := range []int64{-1, 8} {
		rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
				Body: io.NopCloser(strings.NewReader(`{"id":5}`)), ContentLength: length, Request: r}, nil
		})
		tr, _ := newTestTransport(t, rt)
		var out struct {
			ID string `json:"id"`
		}
		err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/me", Class: Read}, &out)
		if err == nil {
			t.Fatalf("length %d: no error", length)
		}
		msgs = append(msgs, err.Error())
	}
	if msgs[0] != msgs[1] {
		t.Errorf("streamed: %s\nsized:    %s", msgs[0], msgs[1])
	}
}

// A key with characters a path escapes is redacted in its escaped form too.
func TestRedactEscapedKeyInPath(t *testing.T) {
	t.Parallel()
	const key = "sk_ab/cd?e%f"
	tr := New(Config{BaseURL: testBase, APIKey: key})
	if got := tr.Redact("GET /envs/" + url.PathEscape(key) + " and " + key); got != "GET /envs/sk_*** and sk_***" {
		t.Errorf("Redact = %q", got)
	}
}
