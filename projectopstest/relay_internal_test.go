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

// publicSlug, which spares relayed requests the mux, takes only paths the
// mux sends to the public relay route, with the slug the mux reads.
func TestPublicSlugAgreesWithTheMux(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc(relayPublicRoute, func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, r.PathValue("slug")) })
	for _, p := range []string{"/tunnels/abc/mcp", "/tunnels/abc/", "/tunnels/abc/a/b", "/tunnels/abc",
		"/tunnels/", "/tunnels", "/tunnelsx/abc/mcp", "/api/v1/tunnels/abc/mcp", "/tunnels/a%2Fb/mcp",
		"/tunnels/a%20b/mcp", "/tunnels/a.b_c-d~e/mcp", "/tunnels/abc/%2e%2e/x"} {
		slug, ok := publicSlug(p)
		if !ok {
			continue
		}
		r := httptest.NewRequest(http.MethodPost, p, nil)
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		if w.Code != http.StatusOK || w.Body.String() != slug {
			t.Errorf("publicSlug(%q) = %q; the mux answers %d %q", p, slug, w.Code, w.Body.String())
		}
	}
	for _, p := range []string{"/tunnels/abc", "/tunnels/", "/tunnels/a%2Fb/mcp", "/api/v1/tunnels/abc/mcp"} {
		if slug, ok := publicSlug(p); ok {
			t.Errorf("publicSlug(%q) = %q, true; want it left to the mux", p, slug)
		}
	}
}
