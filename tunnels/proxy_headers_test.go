package tunnels_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// The edge's X-Forwarded-Host and -For reach the local server as the edge
// sent them; X-Forwarded-Proto is the scheme of the tunnel's public URL
// (https here), not the caller's, so a local server that builds its
// public URLs (OAuth resource metadata, SSE endpoints) from it sees
// https; Forwarded, which the edge does not set, is the caller's claim
// (for=127.0.0.1 would pass for a loopback proxy) and is dropped.
func TestProxyToForwardsTheEdgesForwardedHeaders(t *testing.T) {
	t.Parallel()
	f := setup(t)
	seen := make(chan http.Header, 1)
	ph := proxyToLocal(t, func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Header.Clone()
		_, _ = io.WriteString(w, "ok")
	})
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	g := e.grant()
	g.URL = "https://slug0001.tunnels.example/api/mcp/adapter-http/srv_1?k=s3cret"
	serveOn(t, f, g, ph)
	c := e.next(t)
	c.req(1, http.MethodGet, "/api/mcp/adapter-http/srv_1?k=s3cret", http.Header{
		"X-Forwarded-Proto": {"http"}, "Forwarded": {"for=127.0.0.1;proto=https"},
		"X-Forwarded-Host": {"slug0001.tunnels.example"}, "X-Forwarded-For": {"203.0.113.9"}}, nil)
	if r := c.response(1); r.status != http.StatusOK {
		t.Fatalf("reply %+v", r)
	}
	got := <-seen
	want := http.Header{"X-Forwarded-Proto": {"https"}, "X-Forwarded-Host": {"slug0001.tunnels.example"},
		"X-Forwarded-For": {"203.0.113.9"}}
	for k, v := range want {
		if g := got.Values(k); len(g) != 1 || g[0] != v[0] {
			t.Errorf("local server saw %s %q, want %q", k, g, v)
		}
	}
	if v, ok := got["Forwarded"]; ok {
		t.Errorf("local server saw the caller's Forwarded %q", v)
	}
}

// Outside Serve, ProxyTo cannot know the public scheme: a caller's
// X-Forwarded-Proto and Forwarded are dropped, not passed on.
func TestProxyToDropsTheCallersProtoOutsideServe(t *testing.T) {
	t.Parallel()
	seen := make(chan http.Header, 1)
	ph := proxyToLocal(t, func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Header.Clone()
	})
	req := httptest.NewRequest(http.MethodGet, "/mcp", nil)
	req.Header.Set("X-Forwarded-Proto", "https")
	req.Header.Set("Forwarded", "for=127.0.0.1;proto=https")
	rec := httptest.NewRecorder()
	ph.ServeHTTP(rec, req)
	got := <-seen
	if rec.Code != http.StatusOK || got["X-Forwarded-Proto"] != nil || got["Forwarded"] != nil {
		t.Errorf("%d; local server saw X-Forwarded-Proto %q and Forwarded %q, want neither",
			rec.Code, got["X-Forwarded-Proto"], got["Forwarded"])
	}
}

// ProxyTo adds no Accept-Encoding to a request that had none (net/http's
// transport would add gzip and decompress the answer behind the caller's
// back): the local server sees the caller's headers, and a compressed
// answer reaches the caller as it was sent, Content-Encoding and all.
func TestProxyToAddsNoAcceptEncoding(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	_, _ = io.WriteString(zw, `{"jsonrpc":"2.0"}`)
	_ = zw.Close()
	seen := make(chan []string, 1)
	ph := proxyToLocal(t, func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Header["Accept-Encoding"]
		w.Header().Set("Content-Encoding", "gzip") // unasked, as some servers do
		_, _ = w.Write(zipped.Bytes())
	})
	r := relayOnce(t, f, ph, http.MethodPost, "/api/mcp/adapter-http/srv_1?k=s3cret",
		http.Header{"Content-Type": {"application/json"}}, []byte(`{}`))
	if r.status != http.StatusOK {
		t.Fatalf("reply %+v", r)
	}
	if got := <-seen; got != nil {
		t.Errorf("local server saw Accept-Encoding %q the caller never sent", got)
	}
	if r.header.Get("Content-Encoding") != "gzip" || r.body != zipped.String() {
		t.Errorf("caller got Content-Encoding %q and %d bytes; want the local server's gzip answer as is",
			r.header.Get("Content-Encoding"), len(r.body))
	}
}
