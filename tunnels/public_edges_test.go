package tunnels_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/tunnels"
)

// Only the tunnel's own path is relayed: a public URL with nothing after
// the slug, a wrong secret, an empty slug or an escaped slash in it, or
// another path under the slug answers the relay's 404 envelope. None of
// them is net/http's redirect, which would repeat the query, secret and
// all, in Location and body.
func TestPublicURLWithoutPathNeverRedirects(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	k := secretOf(t, g)
	seen := make(chan string, 1)
	serve(t, f, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.URL.RequestURI()
		_, _ = io.WriteString(w, "root")
	}))
	u, err := url.Parse(g.URL)
	if err != nil {
		t.Fatal(err)
	}
	scope := "/api/mcp/adapter-http/" + g.ServerID
	slug := strings.TrimSuffix(strings.TrimPrefix(u.Path, "/tunnels/"), scope)
	c := *f.Srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	call := func(path, query string) (int, string, string) {
		t.Helper()
		v := *u
		v.Path, v.RawPath, v.RawQuery = path, "", query
		if strings.Contains(path, "%") {
			v.Path, _ = url.PathUnescape(path)
			v.RawPath = path
		}
		resp, err := c.Get(v.String())
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Location"), string(b)
	}

	status, loc, body := call("/tunnels/"+slug+scope, "k="+url.QueryEscape(k)+"&x=1")
	if status != http.StatusOK || body != "root" || loc != "" {
		t.Fatalf("the public URL: %d %q %q", status, loc, body)
	}
	if got := <-seen; got != "/mcp?x=1" {
		t.Errorf("host saw %q, want /mcp?x=1", got)
	}
	for _, p := range []struct{ path, query string }{
		{"/tunnels/" + slug, "k=" + k},
		{"/tunnels/" + slug + "/mcp", "k=" + k},
		{"/tunnels/" + slug + "/api/mcp/adapter-http/other", "k=" + k},
		{"/tunnels/" + slug + scope + "x", "k=" + k},
		{"/tunnels/" + slug + scope, "k=wrong-secret"},
		{"/tunnels/" + slug, ""},
		{"/tunnels//mcp", "k=" + k},
		{"/tunnels/" + slug + "%2Fmcp", "k=" + k},
	} {
		status, loc, body := call(p.path, p.query)
		if status != http.StatusNotFound || !strings.Contains(body, `"NOT_FOUND"`) || loc != "" ||
			strings.Contains(body, k) {
			t.Errorf("%s?%s: %d Location=%q body=%q; want the 404 envelope", p.path, tunnels.RedactURL("?"+p.query), status, loc, body)
		}
	}
}

// The host strips ?k= from the request line, and redacts it in a Referer
// naming the public URL (a page served through the tunnel loading more):
// the handler never sees the secret, which the edge forwards.
func TestSecretNotInRelayedReferer(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	k := secretOf(t, g)
	seen := make(chan string, 1)
	serve(t, f, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.URL.RequestURI() + " Referer=" + r.Header.Get("Referer")
	}))
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, strings.Replace(g.URL, "?", "/app.js?", 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Referer", g.URL+"&page=2")
	resp, err := f.Srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	got := <-seen
	if strings.Contains(got, k) || !strings.Contains(got, "k=REDACTED") || !strings.Contains(got, "page=2") {
		t.Errorf("host saw %q; want the Referer with its secret redacted", tunnels.RedactURL(got))
	}
}

// ProxyTo sends target's userinfo as Basic auth (a transport never sends a
// URL's userinfo) unless the caller sent its own Authorization, passes the
// relay's X-Forwarded-Host and -For on, and sets X-Forwarded-Proto to the
// public URL's scheme (the double's is http): a caller's own
// X-Forwarded-Proto and Forwarded never reach the local server.
func TestProxyToUserinfoAndForwarded(t *testing.T) {
	t.Parallel()
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		fmt.Fprintf(w, "%v %s %s|%s|%s|%s|%s", ok, u, p, r.Header.Get("Authorization"),
			r.Header.Get("X-Forwarded-Host"), r.Header.Get("X-Forwarded-For"), r.Header.Get("X-Forwarded-Proto")+r.Header.Get("Forwarded"))
	}))
	defer local.Close()
	tu, err := url.Parse(local.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	tu.User = url.UserPassword("alice", "pw")
	ph, err := tunnels.ProxyTo(tu)
	if err != nil {
		t.Fatal(err)
	}
	f := setup(t)
	g := create(t, f, "local")
	serve(t, f, g, ph)
	status, body := get(t, f, http.MethodGet, g.URL, "")
	parts := strings.Split(body, "|")
	if status != http.StatusOK || len(parts) != 5 || parts[0] != "true alice pw" || parts[2] == "" || parts[3] == "" || parts[4] != "http" {
		t.Fatalf("local server saw %q (status %d); want Basic alice:pw, the relay's forwarded headers and X-Forwarded-Proto http", body, status)
	}

	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, g.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer caller-token")
	req.Header.Set("X-Forwarded-Proto", "https") // the relay sets none: this one is the caller's
	req.Header.Set("Forwarded", "for=127.0.0.1;proto=https")
	resp, err := f.Srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.HasPrefix(string(b), "false  |Bearer caller-token|") || !strings.HasSuffix(string(b), "|http") {
		t.Errorf("with the caller's Authorization the local server saw %q; want it untouched, X-Forwarded-Proto the public URL's scheme and no Forwarded", b)
	}
}
