package projectops_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/catalog"
)

const (
	testKey = "sk_test_SECRET123"
	// testBase puts a path in front of /api/v1 so that a join that loses
	// it is caught (go-github's setup does the same).
	testBase = "https://api.example.test/prefix/api/v1"
)

// seen is one request as the mock saw it.
type seen struct {
	Method, Path, Auth, UA string
	Query                  url.Values
	HasAuth                bool
}

// server is a per-test httpmock transport with routes relative to testBase;
// any request outside testBase, or to an unregistered route, fails the test.
type server struct {
	t    *testing.T
	mock *httpmock.MockTransport
	mu   sync.Mutex
	reqs []seen
}

func newServer(t *testing.T) *server {
	t.Helper()
	s := &server{t: t, mock: httpmock.NewMockTransport()}
	s.mock.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		if !strings.HasPrefix(req.URL.String(), testBase+"/") {
			t.Errorf("request lost the base URL prefix: %s %s", req.Method, req.URL)
		} else {
			t.Errorf("unexpected request %s %s", req.Method, req.URL)
		}
		return httpmock.NewStringResponse(http.StatusNotFound, `{"code":"NOT_FOUND","message":"no route"}`), nil
	})
	return s
}

// handle registers fn for method and route (relative to testBase; query
// strings are matched loosely by httpmock) and records each request.
func (s *server) handle(method, route string, fn func(req *http.Request) (int, string)) {
	s.mock.RegisterResponder(method, testBase+route, func(req *http.Request) (*http.Response, error) {
		_, hasAuth := req.Header["Authorization"]
		s.mu.Lock()
		s.reqs = append(s.reqs, seen{Method: req.Method, Path: req.URL.EscapedPath(), Auth: req.Header.Get("Authorization"),
			UA: req.Header.Get("User-Agent"), Query: req.URL.Query(), HasAuth: hasAuth})
		s.mu.Unlock()
		code, body := fn(req)
		return httpmock.NewStringResponse(code, body), nil
	})
}

func (s *server) requests() []seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seen(nil), s.reqs...)
}

func (s *server) client(opts ...option.RequestOption) *projectops.Client {
	s.t.Helper()
	base := []option.RequestOption{option.WithoutEnvironment(), option.WithAPIKey(testKey),
		option.WithBaseURL(testBase), option.WithTransport(s.mock)}
	c, err := projectops.NewClient(append(base, opts...)...)
	if err != nil {
		s.t.Fatal(err)
	}
	return c
}

func fixed(code int, body string) func(*http.Request) (int, string) {
	return func(*http.Request) (int, string) { return code, body }
}

func TestNewClientDefaults(t *testing.T) {
	t.Parallel()
	c, err := projectops.NewClient(option.WithoutEnvironment(), nil, option.WithAPIKey(testKey), nil)
	if err != nil {
		t.Fatalf("nil options must be ignored: %v", err)
	}
	if c.BaseURL() != option.DefaultBaseURL || c.Catalog == nil || c.Servers == nil || c.Hosts == nil {
		t.Errorf("client %v: base %q, services %v %v %v", c, c.BaseURL(), c.Catalog, c.Servers, c.Hosts)
	}
}

func TestUserAgent(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		opts []option.RequestOption
		want string
	}{
		{nil, "projectops-go/" + projectops.Version},
		{[]option.RequestOption{option.WithUserAgent("myapp/1.2")}, "myapp/1.2 projectops-go/" + projectops.Version},
	} {
		s := newServer(t)
		s.handle(http.MethodGet, "/me", fixed(200, `{"id":"u1"}`))
		if _, err := s.client(tt.opts...).Catalog.Me(t.Context()); err != nil {
			t.Fatal(err)
		}
		if ua := s.requests()[0].UA; ua != tt.want || !strings.Contains(ua, "projectops-go/") {
			t.Errorf("User-Agent = %q, want %q", ua, tt.want)
		}
	}
}

func TestNoKey(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	s.handle(http.MethodGet, "/host-catalog", fixed(200, `{"schemaVersion":1,"source":"live","catalog":{"hostsById":{}}}`))
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithBaseURL(testBase), option.WithTransport(s.mock))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Catalog.Me(t.Context())
	var e *projectops.Error
	if !errors.As(err, &e) || e.Code != projectops.CodeUnauthorized || e.StatusCode != 0 {
		t.Fatalf("Me without a key: %v; want a client-side UNAUTHORIZED", err)
	}
	if !errors.Is(err, projectops.ErrUnauthorized) {
		t.Error("errors.Is(err, ErrUnauthorized) = false")
	}
	if n := len(s.requests()); n != 0 {
		t.Fatalf("sent %d requests without a key", n)
	}

	// The public host catalog still works, and sends no Authorization.
	hc, err := c.Catalog.HostCatalog(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if hc.Source != catalog.SourceLive || hc.SchemaVersion != 1 {
		t.Errorf("host catalog = %+v", hc)
	}
	if r := s.requests(); len(r) != 1 || r[0].HasAuth {
		t.Errorf("requests = %+v; want one without Authorization", r)
	}
}

func TestPublicRequestWithKey(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	s.handle(http.MethodGet, "/host-catalog", fixed(200, `{}`))
	s.handle(http.MethodGet, "/me", fixed(200, `{}`))
	c := s.client()
	if _, err := c.Catalog.HostCatalog(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Catalog.Me(t.Context()); err != nil {
		t.Fatal(err)
	}
	r := s.requests()
	if len(r) != 2 || r[0].HasAuth || r[1].Auth != "Bearer "+testKey {
		t.Errorf("requests = %+v; want the public one without Authorization and /me with it", r)
	}
}

func TestClientFormattingHidesKey(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	s := newServer(t)
	c := s.client(option.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	for _, f := range []string{"%v", "%+v", "%#v", "%s"} {
		for _, v := range []any{c, *c, c.Catalog, c.Servers, c.Hosts} {
			if got := fmt.Sprintf(f, v); strings.Contains(got, "SECRET") {
				t.Errorf("Sprintf(%s, %T) shows the key: %s", f, v, got)
			}
		}
	}
	if got := c.String(); got != "projectops.Client{transport{base="+testBase+" key=set}}" {
		t.Errorf("String() = %q", got)
	}
	if got := fmt.Sprintf("%#v", c); got != c.String() {
		t.Errorf("%%#v = %q, want String()", got)
	}

	// A failing call through the client: nothing in the error or the log.
	s.handle(http.MethodGet, "/me", fixed(401, `{"code":"UNAUTHORIZED","message":"key `+testKey+` revoked"}`))
	_, err := c.Catalog.Me(t.Context())
	if err == nil {
		t.Fatal("Me succeeded")
	}
	for _, text := range []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err), logs.String()} {
		if strings.Contains(text, "SECRET") {
			t.Errorf("key leaked: %s", text)
		}
	}
	if !strings.Contains(logs.String(), "route=/me") {
		t.Errorf("debug log missing: %q", logs.String())
	}
}

// TestBasePathKept sends a few real service calls through a base URL with a
// path; newServer fails any that lost the prefix.
func TestBasePathKept(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	s.handle(http.MethodGet, "/me", fixed(200, `{"id":"u1"}`))
	s.handle(http.MethodGet, "/projects/my%20proj/chatboxes/a%2Fb", fixed(200, `{"id":"a/b"}`))
	s.handle(http.MethodGet, "/harness/claude-code/builtin-tools", fixed(200, `{"items":[]}`))
	c := s.client(option.WithBaseURL(testBase + "/"))
	if _, err := c.Catalog.Me(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Catalog.Chatbox(t.Context(), "my proj", "a/b"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Catalog.ListBuiltinTools(t.Context(), "claude-code", nil); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, r := range s.requests() {
		paths = append(paths, r.Path)
	}
	want := []string{"/prefix/api/v1/me", "/prefix/api/v1/projects/my%20proj/chatboxes/a%2Fb", "/prefix/api/v1/harness/claude-code/builtin-tools"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}

	_, err := c.Catalog.Chatbox(t.Context(), "p", "")
	var e *projectops.Error
	if !errors.As(err, &e) || e.Code != projectops.CodeValidation || e.Details["field"] != "chatboxId" {
		t.Errorf("empty chatbox id: %v; want VALIDATION_ERROR naming chatboxId", err)
	}
}

// TestChatSessionsIterator drives the pager through a real listing: lazy,
// the caller's params copied, cursors followed through an empty page.
func TestChatSessionsIterator(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	s.handle(http.MethodGet, "/chat-sessions", func(req *http.Request) (int, string) {
		switch req.URL.Query().Get("before") {
		case "":
			return 200, `{"items":[{"id":"c1","title":"one","unknownField":1}],"nextCursor":"k1"}`
		case "k1":
			return 200, `{"items":[],"nextCursor":"k2"}`
		case "k2":
			return 200, `{"items":[{"id":"c2"},{"id":"c3"}]}`
		}
		return 400, `{"code":"VALIDATION_ERROR","message":"bad cursor"}`
	})
	c := s.client()
	p := &catalog.ChatSessionsParams{ProjectID: "p1", Status: catalog.ChatSessionActive, Limit: 2}
	seq := c.Catalog.AllChatSessions(t.Context(), p)
	if n := len(s.requests()); n != 0 {
		t.Fatalf("%d requests before iterating", n)
	}
	// Changing the caller's params afterwards must not affect the iterator.
	p.ProjectID, p.Status, p.Limit, p.Cursor = "other", catalog.ChatSessionArchived, 99, "k2"

	var ids []string
	for cs, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, cs.ID)
	}
	if diff := cmp.Diff([]string{"c1", "c2", "c3"}, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	var queries []url.Values
	for _, r := range s.requests() {
		queries = append(queries, r.Query)
	}
	want := []url.Values{
		{"projectId": {"p1"}, "status": {"active"}, "limit": {"2"}},
		{"projectId": {"p1"}, "status": {"active"}, "limit": {"2"}, "before": {"k1"}},
		{"projectId": {"p1"}, "status": {"active"}, "limit": {"2"}, "before": {"k2"}},
	}
	if diff := cmp.Diff(want, queries); diff != "" {
		t.Errorf("queries (-want +got):\n%s", diff)
	}
}

func TestIteratorErrors(t *testing.T) {
	t.Parallel()
	t.Run("repeated cursor", func(t *testing.T) {
		t.Parallel()
		s := newServer(t)
		s.handle(http.MethodGet, "/chat-sessions", func(req *http.Request) (int, string) {
			if req.URL.Query().Get("before") == "" {
				return 200, `{"items":[{"id":"c1"}],"nextCursor":"a"}`
			}
			return 200, `{"items":[{"id":"c2"}],"nextCursor":"a"}`
		})
		var errs []error
		n := 0
		for _, err := range s.client().Catalog.AllChatSessions(t.Context(), nil) {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			n++
		}
		if n != 2 || len(errs) != 1 || !errors.Is(errs[0], projectops.ErrCursorLoop) {
			t.Errorf("%d items, errors %v; want 2 items and one ErrCursorLoop", n, errs)
		}
	})
	t.Run("error response", func(t *testing.T) {
		t.Parallel()
		s := newServer(t)
		s.handle(http.MethodGet, "/projects/p1/chatboxes", fixed(403, `{"code":"FORBIDDEN","message":"no"}`))
		var errs []error
		for _, err := range s.client().Catalog.AllChatboxes(t.Context(), "p1", nil) {
			errs = append(errs, err)
		}
		if len(errs) != 1 || !errors.Is(errs[0], projectops.ErrForbidden) {
			t.Errorf("yielded %v; want one FORBIDDEN", errs)
		}
		if n := len(s.requests()); n != 1 {
			t.Errorf("requests = %d, want 1", n)
		}
	})
}

func TestRetryOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		opts         []option.RequestOption
		reply        func(*http.Request) (int, string)
		retryAfter   string
		wantAttempts int
		wantRA       time.Duration
	}{
		{"default retries", []option.RequestOption{option.WithRetryBackoff(time.Millisecond, time.Millisecond)},
			fixed(503, ""), "", 4, 0},
		{"no retries", []option.RequestOption{option.WithMaxRetries(0)}, fixed(503, ""), "", 1, 0},
		{"one retry", []option.RequestOption{option.WithMaxRetries(1), option.WithRetryBackoff(time.Millisecond, time.Millisecond)},
			fixed(500, ""), "", 2, 0},
		{"Retry-After above the default cap", nil, fixed(429, ""), "61", 1, 61 * time.Second},
		{"WithMaxRetryAfter(0) waits for none", []option.RequestOption{option.WithMaxRetryAfter(0)}, fixed(429, ""), "1", 1, time.Second},
		{"WithMaxRetryAfter(0) still retries Retry-After 0", []option.RequestOption{option.WithMaxRetryAfter(0), option.WithMaxRetries(2)},
			fixed(429, ""), "0", 3, 0},
		{"lower cap", []option.RequestOption{option.WithMaxRetryAfter(5 * time.Second)}, fixed(429, ""), "6", 1, 6 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			s.mock.RegisterResponder(http.MethodGet, testBase+"/me", func(req *http.Request) (*http.Response, error) {
				s.mu.Lock()
				s.reqs = append(s.reqs, seen{Method: req.Method})
				s.mu.Unlock()
				code, body := tt.reply(req)
				resp := httpmock.NewStringResponse(code, body)
				if tt.retryAfter != "" {
					resp.Header.Set("Retry-After", tt.retryAfter)
				}
				return resp, nil
			})
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			_, err := s.client(tt.opts...).Catalog.Me(ctx)
			var e *projectops.Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want *projectops.Error", err)
			}
			if e.RetryAfter != tt.wantRA {
				t.Errorf("RetryAfter = %s, want %s", e.RetryAfter, tt.wantRA)
			}
			if n := len(s.requests()); n != tt.wantAttempts {
				t.Errorf("attempts = %d, want %d", n, tt.wantAttempts)
			}
		})
	}
}

func TestWithRateLimit(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	s.handle(http.MethodGet, "/me", fixed(200, `{}`))
	// 60 a minute with a burst of 2: two calls go at once; the third would
	// wait a second, which outlasts a deadline set in the past... so give it
	// a deadline shorter than that wait and it is refused upfront.
	c := s.client(option.WithRateLimit(60, 2))
	for i := range 2 {
		if _, err := c.Catalog.Me(t.Context()); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, err := c.Catalog.Me(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("third call: %v; want it paced (refused for the deadline)", err)
	}
	if n := len(s.requests()); n != 2 {
		t.Errorf("requests sent = %d, want 2", n)
	}
}

func TestWithHTTPClient(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	s.handle(http.MethodGet, "/me", fixed(200, `{"id":"u1"}`))
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey(testKey),
		option.WithBaseURL(testBase), option.WithHTTPClient(&http.Client{Transport: s.mock}))
	if err != nil {
		t.Fatal(err)
	}
	me, err := c.Catalog.Me(t.Context())
	if err != nil || me.ID != "u1" {
		t.Fatalf("Me = %+v, %v", me, err)
	}
	if r := s.requests(); len(r) != 1 || r[0].Auth != "Bearer "+testKey {
		t.Errorf("requests = %+v", r)
	}
}
