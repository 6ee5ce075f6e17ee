package projectopstest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// tunnelQuery reads the secret as url.ParseQuery does and forwards the
// rest of the query as the caller wrote it.
func TestTunnelQuery(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ raw, rest string }{
		{"", ""}, {"k=abc", ""}, {"k=a=b", ""}, {"k=", ""}, {"k=a%2Fb", ""}, {"k=a+b", ""}, {"k=a&x=1", "x=1"},
		{"x=1&k=a", "x=1"}, {"k=a&k=b", ""}, {"kk=a", "kk=a"}, {"x=2&y=1", "x=2&y=1"},
		{"k=s&b=2&a=1&flag", "b=2&a=1&flag"}, {"%6B=s&q=a%20b+c", "q=a%20b+c"}, {"a=1&&k=s&", "a=1"},
	} {
		q, _ := url.ParseQuery(tt.raw)
		k, rest := tunnelQuery(tt.raw)
		if k != q.Get("k") || rest != tt.rest {
			t.Errorf("tunnelQuery(%q) = %q, %q; want %q, %q", tt.raw, k, rest, q.Get("k"), tt.rest)
		}
	}
}

// publicSlug, which spares relayed requests the mux, takes every path
// under /tunnels/ but the agent's (the mux would answer some of them with a
// redirect repeating the query, ?k= secret and all). Where the mux would
// reach the public relay route with a slug a tunnel can have, publicSlug
// reads the same slug (relayPublic then holds the rest to the tunnel's
// scope: a bare /tunnels/{slug} is outside it).
func TestPublicSlugAgreesWithTheMux(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc(relayPublicRoute, func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, r.PathValue("slug")) })
	for _, p := range []string{"/tunnels/abc/api/mcp/adapter-http/srv_1", "/tunnels/abc/mcp", "/tunnels/abc/", "/tunnels/abc/a/b",
		"/tunnels/a%20b/mcp", "/tunnels/a.b_c-d~e/mcp", "/tunnels/abc/%2e%2e/x"} {
		slug, ok := publicSlug(http.MethodPost, p)
		r := httptest.NewRequest(http.MethodPost, p, nil)
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		if !ok || w.Code != http.StatusOK || w.Body.String() != slug {
			t.Errorf("publicSlug(%q) = %q, %v; the mux answers %d %q", p, slug, ok, w.Code, w.Body.String())
		}
	}
	for _, tt := range []struct {
		method, path, slug string
		public             bool
	}{
		{"GET", "/tunnels/abc", "abc", true}, {"GET", "/tunnels/", "", true}, {"GET", "/tunnels//mcp", "", true},
		{"GET", "/tunnels/a%2Fb/mcp", "", true}, {"GET", "/tunnels/a%zz/mcp", "", true},
		{"GET", "/tunnels/agent", "", false}, {"HEAD", "/tunnels/agent", "", false},
		{"POST", "/tunnels/agent", "agent", true}, {"OPTIONS", "/tunnels/agent", "agent", true},
		{"GET", "/tunnels", "", false}, {"GET", "/tunnelsx/abc/mcp", "", false}, {"GET", "/api/v1/tunnels/abc/mcp", "", false},
	} {
		if slug, ok := publicSlug(tt.method, tt.path); slug != tt.slug || ok != tt.public {
			t.Errorf("publicSlug(%s %q) = %q, %v; want %q, %v", tt.method, tt.path, slug, ok, tt.slug, tt.public)
		}
	}
}

// No method on the agent's path reaches the mux's redirect, which would
// repeat the query, ?k= secret and all.
func TestAgentPathOtherMethodsNoRedirect(t *testing.T) {
	t.Parallel()
	s := NewTestServer(t)
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodOptions, http.MethodPatch} {
		r := httptest.NewRequest(m, "/tunnels/agent?k=S3CRET", strings.NewReader("{}"))
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, r)
		if loc := w.Header().Get("Location"); w.Code != http.StatusNotFound || strings.Contains(loc+w.Body.String(), "S3CRET") {
			t.Errorf("%s /tunnels/agent?k=…: %d Location=%q; want the 404 envelope without the query", m, w.Code, loc)
		}
	}
}

// A tunnel relays its server's adapter path and what lies under it, and
// nothing else; the server id is compared escaped, as the caller wrote it.
func TestInScope(t *testing.T) {
	t.Parallel()
	scope := tunnelScope("srv 1/x")
	if scope != "/api/mcp/adapter-http/srv%201%2Fx" {
		t.Fatalf("tunnelScope = %q", scope)
	}
	for uri, want := range map[string]bool{
		scope: true, scope + "/": true, scope + "/sse": true, scope + "/a/b": true,
		"": false, "/": false, "/mcp": false, scope + "x": false, scope[:len(scope)-1]: false,
		"/api/mcp/adapter-http/srv 1/x": false, "/api/mcp/adapter-http/other": false, "/x" + scope: false,
	} {
		if got := inScope(uri, scope); got != want {
			t.Errorf("inScope(%q) = %v, want %v", uri, got, want)
		}
	}
}
