package tunnels_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

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
		"/mcp":        "/srv/mcp?token=t",
		"/mcp?x=1":    "/srv/mcp?token=t&x=1",
		"/mcp/sub":    "/srv/mcp/sub?token=t",
		"/mcpx":       "/srv/mcp/mcpx?token=t",
		"/other/path": "/srv/mcp/other/path?token=t",
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, in, nil))
		if got := rec.Body.String(); rec.Code != http.StatusOK || got != want {
			t.Errorf("%s → %d %q, want %q", in, rec.Code, got, want)
		}
	}
	for _, bad := range []string{"/mcp", "ftp://x/mcp", "http:///mcp"} {
		u, _ := url.Parse(bad)
		if _, err := tunnels.ProxyTo(u); err == nil {
			t.Errorf("ProxyTo(%q) accepted", bad)
		}
	}
	// An unreachable local server answers 502.
	dead, _ := url.Parse("http://127.0.0.1:1/mcp")
	h, _ = tunnels.ProxyTo(dead)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/mcp", nil))
	if rec.Code != http.StatusBadGateway {
		t.Errorf("dead target: %d", rec.Code)
	}
}
