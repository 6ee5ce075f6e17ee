package tunnels_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"testing"
)

// The edge's X-Forwarded-Proto and Forwarded reach the local server as
// they arrived, as the service's agent forwards every header but Host and
// the hop-by-hop ones: a local server that builds its public URLs (OAuth
// resource metadata, SSE endpoints) from them sees https, not http.
func TestProxyToForwardsTheEdgesForwardedHeaders(t *testing.T) {
	t.Parallel()
	f := setup(t)
	seen := make(chan http.Header, 1)
	ph := proxyToLocal(t, func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Header.Clone()
		_, _ = io.WriteString(w, "ok")
	})
	hdr := http.Header{"X-Forwarded-Proto": {"https"}, "Forwarded": {"proto=https;host=slug0001.tunnels.example"},
		"X-Forwarded-Host": {"slug0001.tunnels.example"}, "X-Forwarded-For": {"203.0.113.9"}}
	r := relayOnce(t, f, ph, http.MethodGet, "/api/mcp/adapter-http/srv_1?k=s3cret", hdr, nil)
	if r.status != http.StatusOK {
		t.Fatalf("reply %+v", r)
	}
	got := <-seen
	for k, v := range hdr {
		if g := got.Values(k); len(g) != 1 || g[0] != v[0] {
			t.Errorf("local server saw %s %q, want %q as the edge sent it", k, g, v)
		}
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
