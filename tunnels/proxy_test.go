package tunnels_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/tunnels"
)

func TestProxyToMapsPaths(t *testing.T) {
	t.Parallel()
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.URL.RequestURI())
	}))
	defer local.Close()
	target, _ := url.Parse(local.URL + "/srv/mcp?token=t")
	h, err := tunnels.ProxyTo(target)
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"/mcp":         "/srv/mcp?token=t",
		"/mcp?x=1":     "/srv/mcp?token=t&x=1",
		"/mcp/sub":     "/srv/mcp/sub?token=t",
		"/mcp/a.b/..c": "/srv/mcp/a.b/..c?token=t",
		// A literal percent sign that decodes to nothing refused.
		"/mcp/res/100%25abc": "/srv/mcp/res/100%25abc?token=t",
		"/mcp/50%25off":      "/srv/mcp/50%25off?token=t",
		"/mcp/a%2Fb":         "/srv/mcp/a%2Fb?token=t",
		"/mc%70/a%2Fb":       "/srv/mcp/a%2Fb?token=t",
		"/mcp%2Fa%2Fb":       "/srv/mcp/a/b?token=t", // its first '/' escaped: escaped afresh
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, in, nil))
		if got := rec.Body.String(); rec.Code != http.StatusOK || got != want {
			t.Errorf("%s → %d %q, want %q", in, rec.Code, got, want)
		}
	}
	// Only PublicPath is exposed, however the path is spelled.
	for in, want := range map[string]int{
		"/mcpx":                                 http.StatusNotFound,
		"/other/path":                           http.StatusNotFound,
		"/":                                     http.StatusNotFound,
		"/MCP":                                  http.StatusNotFound,
		"/mcp/../admin":                         http.StatusBadRequest,
		"/mcp/%2e%2e/admin":                     http.StatusBadRequest,
		"/mcp/%2E%2e%2fadmin":                   http.StatusBadRequest,
		"/mcp/..":                               http.StatusBadRequest,
		"/mcp/./x":                              http.StatusBadRequest,
		"/mcp/sub/%2e%2e/%2e%2e/x":              http.StatusBadRequest,
		"/mcp/..%5cadmin":                       http.StatusBadRequest,
		"/mcp/..;/admin":                        http.StatusBadRequest,
		"/mcp/%2e%2e;x/admin":                   http.StatusBadRequest,
		"/mcp/.;/x":                             http.StatusBadRequest,
		"/mcp/%252e%252e/admin":                 http.StatusBadRequest,
		"/mcp/%25%32%65%25%32%65/x":             http.StatusBadRequest,
		"/mcp/%252F..":                          http.StatusBadRequest,
		"/mcp/%252e%252e/%252e%252e/admin%25zz": http.StatusBadRequest,
		"/mcp/%252e%252e%252fadmin%25":          http.StatusBadRequest,
		"/mcp/x%00y":                            http.StatusBadRequest,
		"/mcp/x%0d%0aHost:y":                    http.StatusBadRequest,
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, in, nil))
		if rec.Code != want || strings.Contains(rec.Body.String(), "/srv/") {
			t.Errorf("%s → %d %q, want %d and nothing forwarded", in, rec.Code, rec.Body.String(), want)
		}
	}
	for _, bad := range []string{"/mcp", "ftp://x/mcp", "http:///mcp"} {
		u, _ := url.Parse(bad)
		if _, err := tunnels.ProxyTo(u); !errors.Is(err, projectops.ErrValidation) {
			t.Errorf("ProxyTo(%q): %v, want a validation error", bad, err)
		}
	}
}

// Not parallel: it captures the log package's output, which is global.
func TestProxyToUnreachable(t *testing.T) {
	// An unreachable local server answers 502 with the service's agent's
	// JSON body, {"error": "Local target unreachable: <reason>"}, the
	// reason short and free of the outgoing URL's query, and nothing goes
	// to the log package (whose output would carry the outgoing URL and
	// its query).
	var stdlog bytes.Buffer
	log.SetOutput(&stdlog)
	defer log.SetOutput(os.Stderr)
	dead, _ := url.Parse("http://127.0.0.1:1/mcp")
	h, _ := tunnels.ProxyTo(dead)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/mcp?token=tok-SECRET", nil))
	var body struct {
		Error string `json:"error"`
	}
	mt, _, _ := mime.ParseMediaType(rec.Header().Get("Content-Type"))
	if rec.Code != http.StatusBadGateway || mt != "application/json" || json.Unmarshal(rec.Body.Bytes(), &body) != nil ||
		!strings.HasPrefix(body.Error, "Local target unreachable: ") || len(body.Error) > 250 ||
		strings.Contains(body.Error, "SECRET") || strings.Contains(body.Error, "/mcp") {
		t.Errorf("dead target: %d %q %q", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	if stdlog.Len() > 0 {
		t.Errorf("the log package got: %s", stdlog.String())
	}
}

// Not parallel: it captures the log package's output, which is global.
func TestProxyToLocalCutShortCutsCallerShort(t *testing.T) {
	// A local server that dies mid-response reaches the public caller as
	// a body cut short (it read as a complete 200: ReverseProxy aborts
	// only under net/http's server), and nothing goes to the log package.
	var stdlog bytes.Buffer
	log.SetOutput(&stdlog)
	defer log.SetOutput(os.Stderr)
	f := setup(t)
	g := create(t, f, "local")
	ph := proxyToLocal(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "partial")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	})
	serve(t, f, g, ph)
	expectCutShort(t, f, g)
	if stdlog.Len() > 0 {
		t.Errorf("the log package got: %s", stdlog.String())
	}
}

// A public caller leaving mid-stream is an ordinary end, not a body cut
// short: ProxyTo does not panic through the user's middleware then (it did
// on every SSE disconnect once it learnt to abort a failed local body).
func TestProxyToCallerGoneDoesNotPanic(t *testing.T) {
	f := setup(t)
	ph := proxyToLocal(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for {
			if _, err := io.WriteString(w, "data: x\n\n"); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
	var panics atomic.Int32
	done := make(chan struct{}, 8)
	mw := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			done <- struct{}{}
			if v := recover(); v != nil {
				panics.Add(1)
				panic(v)
			}
		}()
		ph.ServeHTTP(w, r)
	})
	g := create(t, f, "sse")
	serve(t, f, g, mw)
	const n = 3
	for range n {
		ctx, cancel := context.WithCancel(t.Context())
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, g.URL, nil)
		resp, err := f.Srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(resp.Body, make([]byte, 9)); err != nil {
			t.Fatal(err)
		}
		cancel()
		resp.Body.Close()
	}
	for range n {
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("a proxied stream did not end after its caller left")
		}
	}
	if p := panics.Load(); p != 0 {
		t.Errorf("%d panics reached the middleware after %d callers left", p, n)
	}
}

// A context the user's middleware ends (a deadline in front of ProxyTo)
// still cuts the public response short: the caller is there and must see
// the cut, unlike one who left.
func TestProxyToMiddlewareDeadlineCutsShort(t *testing.T) {
	f := setup(t)
	g := create(t, f, "deadline")
	ph := proxyToLocal(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "partial")
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
		_, _ = io.WriteString(w, "-rest")
	})
	serve(t, f, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 300*time.Millisecond)
		defer cancel()
		ph.ServeHTTP(w, r.WithContext(ctx))
	}))
	expectCutShort(t, f, g)
}

// proxyToLocal serves h on loopback (closed with t) and returns ProxyTo's
// handler for its /mcp.
func proxyToLocal(t *testing.T, h http.HandlerFunc) http.Handler {
	t.Helper()
	local := httptest.NewServer(h)
	t.Cleanup(local.Close)
	tu, _ := url.Parse(local.URL + "/mcp")
	ph, err := tunnels.ProxyTo(tu)
	if err != nil {
		t.Fatal(err)
	}
	return ph
}

// expectCutShort GETs the public URL and wants its body to end in a read
// error, not a clean EOF.
func expectCutShort(t *testing.T, f *fixture, g *tunnels.Grant) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, g.URL, nil)
	resp, err := f.Srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if b, err := io.ReadAll(resp.Body); err == nil {
		t.Errorf("status %d, body %q read to a clean EOF", resp.StatusCode, b)
	}
}

// A deadline the user's middleware sets in front of ProxyTo (the caller
// still waiting) is the local server's silence: OnUnanswered is told, and
// the caller gets the 502 with its text.
func TestOnUnansweredMiddlewareDeadline(t *testing.T) {
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer local.Close()
	target, _ := url.Parse(local.URL + "/mcp")
	var called atomic.Int32
	proxy, err := tunnels.ProxyTo(target, tunnels.OnUnanswered(func(*http.Request, error) { called.Add(1) }))
	if err != nil {
		t.Fatal(err)
	}
	withDeadline := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 100*time.Millisecond)
		defer cancel()
		proxy.ServeHTTP(w, r.WithContext(ctx))
	})
	front := httptest.NewServer(withDeadline)
	defer front.Close()
	resp, err := http.Post(front.URL+"/mcp", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if called.Load() == 0 {
		t.Errorf("local server timed out under the middleware's deadline (caller still there, got 502 %q), yet OnUnanswered was not called", body)
	}
}
