package projectopstest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
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
// reads the same slug; a bare /tunnels/{slug} is that tunnel's root.
func TestPublicSlugAgreesWithTheMux(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc(relayPublicRoute, func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, r.PathValue("slug")) })
	for _, p := range []string{"/tunnels/abc/mcp", "/tunnels/abc/", "/tunnels/abc/a/b",
		"/tunnels/a%20b/mcp", "/tunnels/a.b_c-d~e/mcp", "/tunnels/abc/%2e%2e/x"} {
		slug, ok := publicSlug(p)
		r := httptest.NewRequest(http.MethodPost, p, nil)
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		if !ok || w.Code != http.StatusOK || w.Body.String() != slug {
			t.Errorf("publicSlug(%q) = %q, %v; the mux answers %d %q", p, slug, ok, w.Code, w.Body.String())
		}
	}
	for _, tt := range []struct {
		path, slug string
		public     bool
	}{
		{"/tunnels/abc", "abc", true}, {"/tunnels/", "", true}, {"/tunnels//mcp", "", true},
		{"/tunnels/a%2Fb/mcp", "", true}, {"/tunnels/a%zz/mcp", "", true},
		{"/tunnels/agent", "", false}, {"/tunnels", "", false}, {"/tunnelsx/abc/mcp", "", false},
		{"/api/v1/tunnels/abc/mcp", "", false},
	} {
		if slug, ok := publicSlug(tt.path); slug != tt.slug || ok != tt.public {
			t.Errorf("publicSlug(%q) = %q, %v; want %q, %v", tt.path, slug, ok, tt.slug, tt.public)
		}
	}
}
