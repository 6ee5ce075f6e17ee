package projectops_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// headerLog records the headers of every request a client sends.
type headerLog struct {
	mu   sync.Mutex
	rt   http.RoundTripper
	seen []http.Header
}

func (l *headerLog) RoundTrip(r *http.Request) (*http.Response, error) {
	l.mu.Lock()
	l.seen = append(l.seen, r.Header.Clone())
	l.mu.Unlock()
	return l.rt.RoundTrip(r)
}

func (l *headerLog) all() []http.Header {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]http.Header(nil), l.seen...)
}

func callOptsClient(t *testing.T) (*projectopstest.Server, *projectops.Client, *headerLog) {
	t.Helper()
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	log := &headerLog{rt: srv.Transport()}
	c, err := srv.NewClient(option.WithTransport(log), option.WithRetryBackoff(time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return srv, c, log
}

func TestCallOptionHeaderAndMetadata(t *testing.T) {
	t.Parallel()
	srv, c, log := callOptsClient(t)
	ws := srv.Default()
	var meta option.Response
	page, err := c.Hosts.List(t.Context(), ws.ProjectID, nil, option.WithHeader("X-Trace", "abc"), option.WithResponseInto(&meta))
	if err != nil || page == nil {
		t.Fatal(err)
	}
	if got := log.all()[0].Get("X-Trace"); got != "abc" {
		t.Errorf("X-Trace = %q", got)
	}
	if meta.StatusCode != 200 || meta.RequestID == "" || meta.Attempts != 1 || meta.Header.Get("Content-Type") == "" {
		t.Errorf("metadata = %+v", meta)
	}
	// The next call does not inherit the options.
	if _, err := c.Hosts.List(t.Context(), ws.ProjectID, nil); err != nil {
		t.Fatal(err)
	}
	if got := log.all()[1].Get("X-Trace"); got != "" {
		t.Errorf("second call carried X-Trace %q", got)
	}
}

// A header the SDK owns is refused before anything is sent.
func TestCallOptionOwnedHeaderRefused(t *testing.T) {
	t.Parallel()
	srv, c, log := callOptsClient(t)
	for _, h := range []string{"Authorization", "authorization", "Idempotency-Key", "content-type"} {
		_, err := c.Hosts.List(t.Context(), srv.Default().ProjectID, nil, option.WithHeader(h, "x"))
		if !errors.Is(err, projectops.ErrValidation) {
			t.Errorf("%s: err = %v", h, err)
		}
	}
	if n := len(log.all()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// The connection-specific headers and Trailer are refused with a
// VALIDATION_ERROR before anything is sent, per call and on the client:
// over HTTP/2, which the service speaks, net/http fails every attempt of a
// request carrying Upgrade, a Transfer-Encoding but chunked or a
// Connection but close or keep-alive (an untyped error retried like a
// network one) and drops Keep-Alive, Proxy-Connection and the rest unsaid;
// TE but "trailers" makes the request malformed, and Trailer promises
// fields only http.Request.Trailer sends.
func TestHopByHopHeaderRefused(t *testing.T) {
	t.Parallel()
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"usr_1","name":"x"}`))
	}))
	ts.EnableHTTP2 = true
	ts.StartTLS()
	t.Cleanup(ts.Close)
	opts := []option.RequestOption{option.WithoutEnvironment(), option.WithAPIKey(optKey), option.WithBaseURL(ts.URL + "/api/v1"),
		option.WithHTTPClient(ts.Client()), option.WithMaxRetries(0)}
	c, err := projectops.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Catalog.Me(t.Context()); err != nil {
		t.Fatalf("the server answers a plain call: %v", err)
	}
	for _, h := range [][2]string{{"Connection", "upgrade"}, {"connection", "close"}, {"Keep-Alive", "timeout=5"},
		{"Proxy-Connection", "keep-alive"}, {"Transfer-Encoding", "gzip"}, {"TE", "trailers"}, {"Te", "gzip"},
		{"Trailer", "X-Sum"}, {"Upgrade", "h2c"}} {
		var meta option.Response
		_, err := c.Catalog.Me(t.Context(), option.WithHeader(h[0], h[1]), option.WithResponseInto(&meta))
		if !errors.Is(err, projectops.ErrValidation) || meta.Attempts != 0 {
			t.Errorf("call WithHeader(%q, %q): %v after %d attempts; want a VALIDATION_ERROR before sending", h[0], h[1], err, meta.Attempts)
		}
		if _, err := projectops.NewClient(append(opts, option.WithHeader(h[0], h[1]))...); !errors.Is(err, projectops.ErrValidation) {
			t.Errorf("client WithHeader(%q, %q): %v; want a VALIDATION_ERROR", h[0], h[1], err)
		}
	}
}

// A RequestOption of the caller's own that fills Config.Header directly
// (Keep-Alive, Trailer) is refused as WithHeader is, by NewClient and by a
// call, before anything is sent: the check once lived in WithHeader only.
func TestCustomOptionRefusedHeader(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"usr_1","name":"x"}`))
	}))
	t.Cleanup(ts.Close)
	own := func(c *option.Config) error {
		if c.Header == nil {
			c.Header = http.Header{}
		}
		c.Header.Set("Keep-Alive", "timeout=5")
		c.Header.Set("Trailer", "X-Foo")
		return nil
	}
	opts := []option.RequestOption{option.WithoutEnvironment(), option.WithAPIKey(optKey), option.WithBaseURL(ts.URL + "/api/v1")}
	if _, err := projectops.NewClient(append(opts, own)...); !errors.Is(err, projectops.ErrValidation) {
		t.Errorf("NewClient with an option setting Keep-Alive and Trailer: %v; want a VALIDATION_ERROR", err)
	}
	c, err := projectops.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Catalog.Me(context.Background(), own); !errors.Is(err, projectops.ErrValidation) {
		t.Errorf("a call with an option setting Keep-Alive and Trailer: %v; want a VALIDATION_ERROR", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// WithMaxRetries(0) sends a failing read once; the client's default
// retries it.
func TestCallOptionMaxRetries(t *testing.T) {
	t.Parallel()
	srv, c, log := callOptsClient(t)
	route := "GET /projects/{projectId}/hosts"
	srv.SetFault(route, projectopstest.Fault{Status: 503})
	var meta option.Response
	_, err := c.Hosts.List(t.Context(), srv.Default().ProjectID, nil, option.WithMaxRetries(0), option.WithResponseInto(&meta))
	if !errors.Is(err, projectops.ErrServerUnreachable) && !errors.Is(err, projectops.ErrInternal) {
		var e *projectops.Error
		if !errors.As(err, &e) || e.StatusCode != 503 {
			t.Fatalf("err = %v", err)
		}
	}
	if n := len(log.all()); n != 1 || meta.Attempts != 1 || meta.StatusCode != 503 {
		t.Errorf("requests %d, metadata %+v; want 1 attempt", n, meta)
	}
	_, _ = c.Hosts.List(t.Context(), srv.Default().ProjectID, nil)
	if n := len(log.all()); n != 1+4 {
		t.Errorf("default: %d requests, want 4 more", n-1)
	}
}

// WithIdempotencyKey sends the key; on a route the service does not
// deduplicate by it (a host create) it changes no retry: a write that may
// have run is not sent again, by the SDK or by net/http.
func TestCallOptionIdempotencyKey(t *testing.T) {
	t.Parallel()
	srv, c, log := callOptsClient(t)
	srv.SetFault("POST /projects/{projectId}/hosts", projectopstest.Fault{Status: 503, Times: 1})
	_, err := c.Hosts.Create(t.Context(), srv.Default().ProjectID, hosts.CreateParams{Name: "h", Template: "claude"},
		option.WithIdempotencyKey("key-1"))
	if e, ok := errors.AsType[*projectops.Error](err); !ok || e.StatusCode != 503 {
		t.Fatalf("err = %v, want the 503", err)
	}
	seen := log.all()
	// The prefixed header alone: net/http re-sends a request carrying
	// Idempotency-Key on a reused connection that fails.
	if len(seen) != 1 || seen[0].Get("Idempotency-Key") != "" || seen[0].Get("X-Mcpjam-Idempotency-Key") != "key-1" {
		t.Errorf("%d attempts (want 1), keys %q, %q", len(seen), seen[0].Get("Idempotency-Key"), seen[0].Get("X-Mcpjam-Idempotency-Key"))
	}
}

// A caller's key does what option.Config.IdempotencyKey says, per route
// class: on a tool call (a write the service does not deduplicate) it goes
// out prefixed only and a 503 is not retried; on eval-suite creation (which
// the service deduplicates by it) it goes out under both names on every
// attempt and the 503 is retried.
func TestCallOptionIdempotencyKeyPerRoute(t *testing.T) {
	t.Parallel()
	srv, c, log := callOptsClient(t)
	ws := srv.Default()
	sid, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "demo",
		MCPServer: projectopstest.DemoMCPServer()})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, route string
		call        func(opts ...option.RequestOption) error
		retried     bool
	}{
		{"tool call", "POST /projects/{projectId}/servers/{serverId}/tools/call", func(opts ...option.RequestOption) error {
			_, err := c.Servers.CallTool(t.Context(), ws.ProjectID, sid,
				servers.CallToolParams{ToolName: "echo", Parameters: map[string]any{"message": "hi"}}, opts...)
			return err
		}, false},
		{"suite creation", "POST /projects/{projectId}/eval-suites", func(opts ...option.RequestOption) error {
			_, err := c.Evals.Suites.Create(t.Context(), ws.ProjectID, evals.CreateSuiteParams{
				Name: "s", ServerIDs: []string{sid}, Model: "openai/gpt-4o-mini",
				Tests: []evals.Test{{Title: "echo", Steps: []evals.Step{evals.PromptStep("ask", "Use the echo tool")}}}}, opts...)
			return err
		}, true},
	}
	for _, tt := range tests { // in turn: they share the log
		srv.SetFault(tt.route, projectopstest.Fault{Status: 503, Times: 1})
		before := len(log.all())
		var meta option.Response
		err := tt.call(option.WithIdempotencyKey("key-"+tt.name), option.WithResponseInto(&meta))
		seen := log.all()[before:]
		if wantN := map[bool]int{false: 1, true: 2}[tt.retried]; len(seen) != wantN || meta.Attempts != wantN || (err == nil) != tt.retried {
			t.Errorf("%s: %d attempts (meta %d), err %v; want %d", tt.name, len(seen), meta.Attempts, err, wantN)
		}
		for i, h := range seen {
			plain, prefixed := h.Get("Idempotency-Key"), h.Get("X-Mcpjam-Idempotency-Key")
			wantPlain := ""
			if tt.retried {
				wantPlain = "key-" + tt.name
			}
			if prefixed != "key-"+tt.name || plain != wantPlain {
				t.Errorf("%s attempt %d: Idempotency-Key %q, X-Mcpjam-Idempotency-Key %q", tt.name, i+1, plain, prefixed)
			}
		}
	}
}

// WithRequestTimeout bounds the call, its retries included.
func TestCallOptionTimeout(t *testing.T) {
	t.Parallel()
	srv, c, _ := callOptsClient(t)
	srv.SetFault("GET /projects/{projectId}/hosts", projectopstest.Fault{Latency: time.Minute})
	start := time.Now()
	_, err := c.Hosts.List(t.Context(), srv.Default().ProjectID, nil, option.WithRequestTimeout(50*time.Millisecond))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}

// On an iterator the options apply to every page.
func TestCallOptionIterator(t *testing.T) {
	t.Parallel()
	srv, c, log := callOptsClient(t)
	ws := srv.Default()
	for i := range 3 {
		if _, err := srv.AddChatSession(projectopstest.ChatSessionSpec{ProjectID: ws.ProjectID, Title: string(rune('a' + i))}); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for _, err := range c.Catalog.AllChatSessions(t.Context(), &catalog.ChatSessionsParams{Limit: 1}, option.WithHeader("X-Trace", "it")) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	for i, h := range log.all() {
		if h.Get("X-Trace") != "it" {
			t.Errorf("page %d without the header", i)
		}
	}
	if n != 3 || len(log.all()) < 3 {
		t.Errorf("%d sessions in %d pages", n, len(log.all()))
	}
}

// One option style: the options of a call given to the client apply to
// every call (a call's own header adds to the client's, its timeout wins),
// a client's option given to a call and a call's given to the client are
// refused before anything is sent.
func TestOptionLevels(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	log := &headerLog{rt: srv.Transport()}
	c, err := srv.NewClient(option.WithTransport(log), option.WithHeader("X-App", "demo"),
		option.WithRequestTimeout(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	ws := srv.Default()
	if _, err := c.Hosts.List(t.Context(), ws.ProjectID, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Hosts.List(t.Context(), ws.ProjectID, nil, option.WithHeader("X-App", "call")); err != nil {
		t.Fatal(err)
	}
	seen := log.all()
	if got := seen[0].Values("X-App"); len(got) != 1 || got[0] != "demo" {
		t.Errorf("client header on a plain call = %q", got)
	}
	if got := seen[1].Values("X-App"); len(got) != 1 || got[0] != "call" {
		t.Errorf("client and call headers = %q, want the call's alone", got)
	}

	for _, opt := range []option.RequestOption{option.WithBaseURL("http://elsewhere.test/api/v1"),
		option.WithAPIKey("sk_other"), option.WithoutEnvironment(), option.WithMaxResponseBytes(10)} {
		_, err := c.Hosts.List(t.Context(), ws.ProjectID, nil, opt)
		var e *projectops.Error
		if !errors.As(err, &e) || e.Code != projectops.CodeValidation {
			t.Errorf("client option on a call: err = %v, want VALIDATION_ERROR", err)
		}
	}
	if n := len(log.all()); n != 2 {
		t.Errorf("%d requests sent, want 2: refused calls send nothing", n)
	}
	var meta option.Response
	for _, opt := range []option.RequestOption{option.WithIdempotencyKey("k"), option.WithResponseInto(&meta), option.WithResponseInto(nil)} {
		if _, err := srv.NewClient(opt); !errors.Is(err, projectops.ErrValidation) {
			t.Errorf("call option on a client: err = %v, want VALIDATION_ERROR", err)
		}
	}
	// A nil target is refused on a call too (it stored nothing, silently).
	if _, err := c.Hosts.List(t.Context(), srv.Default().ProjectID, nil, option.WithResponseInto(nil)); !errors.Is(err, projectops.ErrValidation) {
		t.Errorf("WithResponseInto(nil) on a call: err = %v, want VALIDATION_ERROR", err)
	}
}

// Header options work as openai-go's do (README: given to a method, an
// option changes that call): a call's WithHeader replaces the client's
// value for that call only, WithHeaderAdd adds to it, WithHeaderDel drops
// it; on the client, a later WithHeader replaces an earlier one and
// WithHeaderAdd adds a value.
func TestCallHeaderReplacesClientHeader(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	log := &headerLog{rt: srv.Transport()}
	c, err := srv.NewClient(option.WithTransport(log),
		option.WithHeader("X-Trace-Id", "first"), option.WithHeader("x-trace-id", "client-default"),
		option.WithHeader("X-Tags", "a"), option.WithHeaderAdd("X-Tags", "b"))
	if err != nil {
		t.Fatal(err)
	}
	ws := srv.Default()
	for _, tc := range []struct {
		name       string
		opts       []option.RequestOption
		trace, tag []string
	}{
		{"no call option", nil, []string{"client-default"}, []string{"a", "b"}},
		{"WithHeader", []option.RequestOption{option.WithHeader("X-Trace-Id", "this-call")}, []string{"this-call"}, []string{"a", "b"}},
		{"WithHeaderAdd", []option.RequestOption{option.WithHeaderAdd("X-Trace-Id", "this-call")},
			[]string{"client-default", "this-call"}, []string{"a", "b"}},
		{"WithHeader then WithHeaderAdd", []option.RequestOption{option.WithHeader("X-Tags", "c"), option.WithHeaderAdd("x-tags", "d")},
			[]string{"client-default"}, []string{"c", "d"}},
		{"WithHeaderAdd then WithHeader", []option.RequestOption{option.WithHeaderAdd("X-Tags", "c"), option.WithHeader("X-Tags", "d")},
			[]string{"client-default"}, []string{"d"}},
		{"WithHeaderDel", []option.RequestOption{option.WithHeaderDel("x-trace-id")}, nil, []string{"a", "b"}},
		{"WithHeaderDel then WithHeaderAdd", []option.RequestOption{option.WithHeaderDel("X-Trace-Id"), option.WithHeaderAdd("X-Trace-Id", "this-call")},
			[]string{"this-call"}, []string{"a", "b"}},
		{"after the others: the client's again", nil, []string{"client-default"}, []string{"a", "b"}},
	} {
		before := len(log.all())
		if _, err := c.Hosts.List(t.Context(), ws.ProjectID, nil, tc.opts...); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		seen := log.all()
		if len(seen) != before+1 {
			t.Fatalf("%s: %d requests sent, want 1", tc.name, len(seen)-before)
		}
		h := seen[before]
		if got := h.Values("X-Trace-Id"); !slices.Equal(got, tc.trace) {
			t.Errorf("%s: X-Trace-Id sent as %q, want %q", tc.name, got, tc.trace)
		}
		if got := h.Values("X-Tags"); !slices.Equal(got, tc.tag) {
			t.Errorf("%s: X-Tags sent as %q, want %q", tc.name, got, tc.tag)
		}
	}
}

// WithHeaderAdd and WithHeaderDel refuse what WithHeader refuses, on the
// client and per call, before anything is sent: the SDK's own headers are
// not the caller's to add to or remove.
func TestHeaderAddDelRefused(t *testing.T) {
	t.Parallel()
	srv, c, log := callOptsClient(t)
	for _, opt := range []option.RequestOption{
		option.WithHeaderAdd("Authorization", "Bearer x"), option.WithHeaderDel("authorization"),
		option.WithHeaderAdd("Idempotency-Key", "k"), option.WithHeaderDel("X-Mcpjam-Idempotency-Key"),
		option.WithHeaderDel("User-Agent"), option.WithHeaderDel("Connection"), option.WithHeaderAdd("X-Ok", "a\nb"),
		option.WithHeaderDel(" "), option.WithHeaderAdd("", "v"), option.WithHeaderDel("Bad Name"),
	} {
		if _, err := c.Hosts.List(t.Context(), srv.Default().ProjectID, nil, opt); !errors.Is(err, projectops.ErrValidation) {
			t.Errorf("per call: err = %v, want VALIDATION_ERROR", err)
		}
		if _, err := srv.NewClient(opt); !errors.Is(err, projectops.ErrValidation) {
			t.Errorf("on the client: err = %v, want VALIDATION_ERROR", err)
		}
	}
	if n := len(log.all()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// A client-level timeout bounds every call that sets none of its own.
func TestClientTimeout(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	srv.SetFault("GET /projects/{projectId}/hosts", projectopstest.Fault{Latency: time.Minute})
	c, err := srv.NewClient(option.WithRequestTimeout(20 * time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = c.Hosts.List(t.Context(), srv.Default().ProjectID, nil)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 10*time.Second {
		t.Errorf("err = %v after %v, want the client's deadline", err, time.Since(start))
	}
}
