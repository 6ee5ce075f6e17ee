package mcpconn

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// recorder serves h and records each request's method.
type recorder struct {
	mu      sync.Mutex
	methods []string
}

func (r *recorder) serve(t *testing.T, h http.Handler) *httptest.Server {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.methods = append(r.methods, req.Method)
		r.mu.Unlock()
		h.ServeHTTP(w, req)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// An http server that only speaks legacy SSE is reached over SSE: straight
// away when its path ends in /sse, after a failed Streamable HTTP attempt
// otherwise (the service's client manager's rule). A server that speaks
// Streamable HTTP stays on it.
func TestDialHTTPFallsBackToSSE(t *testing.T) {
	t.Parallel()
	sse := httpServer(t, true).Config.Handler
	for _, tt := range []struct {
		path     string
		h        http.Handler
		want     string
		wantPOST bool // a Streamable HTTP attempt before SSE's GET
	}{
		{"/legacy", sse, TransportSSE, true},
		{"/sse", sse, TransportSSE, false},
		{"/mcp", httpServer(t, false).Config.Handler, TransportHTTP, true},
	} {
		var rec recorder
		ts := rec.serve(t, tt.h)
		c, err := testDialer().Dial(t.Context(), Target{Transport: TransportHTTP, URL: ts.URL + tt.path})
		if err != nil {
			t.Errorf("%s: Dial: %v", tt.path, err)
			continue
		}
		echo(t, c)
		if c.Transport() != tt.want || c.AuthRejected() {
			t.Errorf("%s: transport %q (auth rejected %v), want %q", tt.path, c.Transport(), c.AuthRejected(), tt.want)
		}
		if c.InitRaw == nil {
			t.Errorf("%s: initialize result not captured", tt.path)
		}
		rec.mu.Lock()
		first := rec.methods[0]
		rec.mu.Unlock()
		if (first == http.MethodPost) != tt.wantPOST {
			t.Errorf("%s: first request %s, want a Streamable HTTP attempt first: %v", tt.path, first, tt.wantPOST)
		}
		if !CloseWithin(c, 5*time.Second) {
			t.Errorf("%s: Close did not finish", tt.path)
		}
	}
}

// A refusal survives the fallback: 401 on both attempts is an auth
// failure; an insufficient_scope 403 is not retried over SSE at all.
func TestDialHTTPFallbackKeepsAuthFailures(t *testing.T) {
	t.Parallel()
	var rec recorder
	ts := rec.serve(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusUnauthorized) }))
	_, err := testDialer().Dial(t.Context(), Target{Transport: TransportHTTP, URL: ts.URL})
	var f *Failure
	if !errors.As(err, &f) || f.Kind != AuthRequired || f.Status != http.StatusUnauthorized {
		t.Errorf("401 everywhere: %v, want an auth failure", err)
	}
	var scope recorder
	ts = scope.serve(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="admin"`)
		w.WriteHeader(http.StatusForbidden)
	}))
	_, err = testDialer().Dial(t.Context(), Target{Transport: TransportHTTP, URL: ts.URL})
	if !errors.As(err, &f) || f.Kind != AuthRequired || f.Status != http.StatusForbidden {
		t.Errorf("insufficient_scope: %v, want an auth failure", err)
	}
	scope.mu.Lock()
	defer scope.mu.Unlock()
	for _, m := range scope.methods {
		if m == http.MethodGet {
			t.Errorf("insufficient_scope fell back to SSE: %v", scope.methods)
		}
	}
}

// Both attempts share the one connect deadline: a server that never
// answers times out once, not once per transport.
func TestDialHTTPFallbackWithinConnectTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer ts.Close()
	defer close(release)
	d := testDialer()
	// Long enough that a loaded machine's overhead stays below it: one
	// timeout per transport takes twice it, whatever the machine.
	d.ConnectTimeout = time.Second
	start := time.Now()
	_, err := d.Dial(t.Context(), Target{Transport: TransportHTTP, URL: ts.URL})
	if !errors.Is(err, ErrConnectTimeout) {
		t.Fatalf("err = %v, want ErrConnectTimeout", err)
	}
	if el := time.Since(start); el >= 2*d.ConnectTimeout {
		t.Errorf("timed out after %v, want about %v", el, d.ConnectTimeout)
	}
}
