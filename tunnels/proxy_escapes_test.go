package tunnels_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/tunnels"
)

// proxyThroughTunnel serves ProxyTo(backend's /mcp) on g and returns the
// request URIs the backend receives.
func proxyThroughTunnel(t *testing.T, f *fixture, g *tunnels.Grant) <-chan string {
	t.Helper()
	seen := make(chan string, 1)
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.RequestURI
	}))
	t.Cleanup(b.Close)
	u, _ := url.Parse(b.URL + "/mcp")
	h, err := tunnels.ProxyTo(u)
	if err != nil {
		t.Fatal(err)
	}
	serve(t, f, g, h)
	return seen
}

// getRawSubPath GETs g's public URL with rawSuffix appended to its path
// exactly as written (its escapes kept), and returns the status and body.
func getRawSubPath(t *testing.T, f *fixture, g *tunnels.Grant, rawSuffix string) (int, string) {
	t.Helper()
	u, _ := url.Parse(g.URL)
	p := u.EscapedPath() + rawSuffix
	u.Path, _ = url.PathUnescape(p)
	u.RawPath = p
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, u.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := f.Srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// ProxyTo forwards the sub-path as the caller escaped it: an encoded '/'
// stays one segment (a%2Fb), as a plain Serve handler sees it.
func TestProxyToKeepsEncodedSubPath(t *testing.T) {
	f := setup(t)
	g := create(t, f, "escapes")
	seen := proxyThroughTunnel(t, f, g)
	wantForwarded(t, f, g, seen, []forwarded{
		{"/a%2Fb", "/mcp/a%2Fb"},
		{"/a%2fb/c", "/mcp/a%2fb/c"},
		{"/x%3Fy=1", "/mcp/x%3Fy=1"},
		{"/x%23y", "/mcp/x%23y"},
		{"/sp%20ace", "/mcp/sp%20ace"},
		{"/", "/mcp/"},
		{"", "/mcp"},
	})
}

// A path that a second decoding turns into a new separator or a dot
// segment is refused (a server that decodes twice would route it
// elsewhere); a literal percent sign that decodes to neither is forwarded.
func TestProxyToRefusesDoublyEncodedSeparator(t *testing.T) {
	f := setup(t)
	g := create(t, f, "escapes")
	seen := proxyThroughTunnel(t, f, g)
	for _, sub := range []string{"/files/a%252Fb", "/files/a%255Cb", "/files/%252e%252e", "/files/a%252F..%252Fb"} {
		st, body := getRawSubPath(t, f, g, sub)
		if st != http.StatusBadRequest || !strings.Contains(body, "decode") {
			t.Errorf("%q: %d %q, want 400 naming the decoding", sub, st, body)
		}
	}
	wantForwarded(t, f, g, seen, []forwarded{
		{"/files/100%25done", "/mcp/files/100%25done"},
		{"/files/a%2525b", "/mcp/files/a%2525b"},
	})
	select {
	case got := <-seen:
		t.Errorf("a refused path reached the backend: %q", got)
	default:
	}
}

// A request whose separating '/' after PublicPath is escaped (/mcp%2Fx,
// which Serve never sends but a handler mounted elsewhere may see) still
// keeps target's own escapes: a%2Fb in target's path stays one segment.
func TestProxyToKeepsTargetEscapesWhenSubPathSeparatorIsEscaped(t *testing.T) {
	seen := make(chan string, 1)
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.RequestURI
	}))
	defer b.Close()
	target, _ := url.Parse(b.URL + "/a%2Fb/mcp")
	h, err := tunnels.ProxyTo(target)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{"/mcp%2Fx", "/a%2Fb/mcp/x"},
		{"/mcp/x%2Fy", "/a%2Fb/mcp/x%2Fy"},
		{"/mcp/x%2Fy/c\xc3\xa9{}", "/a%2Fb/mcp/x%2Fy/c%C3%A9%7B%7D"},
		{"/mcp", "/a%2Fb/mcp"},
	} {
		req := httptest.NewRequestWithContext(t.Context(), http.MethodGet, "http://relay.test"+c.path, nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Errorf("%s: %d %q", c.path, rec.Code, rec.Body)
			continue
		}
		if got := <-seen; got != c.want {
			t.Errorf("%s: backend got %q, want %q", c.path, got, c.want)
		}
	}
}

// forwarded is a public sub-path and the path the backend should get.
type forwarded struct{ sub, want string }

// wantForwarded asks each sub-path through the tunnel and checks the path
// the backend got (seen, from proxyThroughTunnel).
func wantForwarded(t *testing.T, f *fixture, g *tunnels.Grant, seen <-chan string, cases []forwarded) {
	t.Helper()
	for _, c := range cases {
		st, body := getRawSubPath(t, f, g, c.sub)
		if st != http.StatusOK {
			t.Errorf("%q: %d %q", c.sub, st, body)
			continue
		}
		if got := <-seen; got != c.want {
			t.Errorf("%q: backend got %q, want %q", c.sub, got, c.want)
		}
	}
}

// A path the caller wrote with raw bytes an escaped path may not hold (a
// UTF-8 "é", '{', '|') reaches the handler as written, as the service's
// edge relays it: ProxyTo escapes those bytes alone and keeps the caller's
// escapes, where EscapedPath would escape the decoded path afresh and
// make a%2Fb two segments.
func TestProxyToKeepsEscapesBesideRawBytes(t *testing.T) {
	f := setup(t)
	g := create(t, f, "escapes")
	seen := proxyThroughTunnel(t, f, g)
	for _, c := range []forwarded{
		{"/a%2Fb/c\xc3\xa9", "/mcp/a%2Fb/c%C3%A9"},
		{"/a%2fb/{x}|", "/mcp/a%2fb/%7Bx%7D%7C"},
		{"/sp%20ace/ok\xc3\xa9\xe2\x82\xac", "/mcp/sp%20ace/ok%C3%A9%E2%82%AC"},
	} {
		u, _ := url.Parse(g.URL)
		// The request line as written (Opaque), and the URL a server
		// reads from it (in process, the double reads Path and RawPath).
		u.Opaque = u.EscapedPath() + c.sub
		u.Path, _ = url.PathUnescape(u.Opaque)
		u.RawPath = u.Opaque
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, g.URL, nil)
		req.URL = u
		resp, err := f.Srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%q: %d", c.sub, resp.StatusCode)
			continue
		}
		if got := <-seen; got != c.want {
			t.Errorf("%q: backend got %q, want %q", c.sub, got, c.want)
		}
	}
}
