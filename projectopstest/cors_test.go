package projectopstest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// corsCall sends one request with an Origin header (none when origin is
// "") to the in-process double and returns the response and its body.
func corsCall(t *testing.T, srv *projectopstest.Server, method, path, key, origin string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL()+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

// The service's app validates a browser's Origin before anything else and
// answers preflights itself: a foreign origin is 403 before
// authentication, a listed one is echoed with credentials allowed, and an
// OPTIONS is 204 on any API path without a key.
func TestBrowserOrigins(t *testing.T) {
	t.Parallel()
	const app = "http://localhost:5173"
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithAllowedOrigins(app))
	ws := srv.Default()

	// No Origin (every non-browser client): served, with the cors headers.
	res, body := corsCall(t, srv, "GET", "/me", ws.APIKey, "", nil)
	if res.StatusCode != http.StatusOK || res.Header.Get("Access-Control-Allow-Credentials") != "true" ||
		res.Header.Get("Vary") != "Origin" || res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("no Origin: %d %v %.100s", res.StatusCode, res.Header, body)
	}
	// A listed origin: echoed.
	res, body = corsCall(t, srv, "GET", "/me", ws.APIKey, app, nil)
	if res.StatusCode != http.StatusOK || res.Header.Get("Access-Control-Allow-Origin") != app {
		t.Errorf("listed origin: %d %v %.100s", res.StatusCode, res.Header, body)
	}
	// A foreign origin: 403 before authentication (no key, a bad body).
	for _, c := range []struct{ method, path, key string }{{"GET", "/me", ws.APIKey}, {"POST", "/projects/x/hosts", ""}} {
		res, body = corsCall(t, srv, c.method, c.path, c.key, "https://evil.example", nil)
		if res.StatusCode != http.StatusForbidden || !strings.Contains(body, `"code":"FORBIDDEN"`) ||
			res.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s %s from a foreign origin: %d %v %s", c.method, c.path, res.StatusCode, res.Header, body)
		}
	}
	// Preflights: 204, no body, no key needed, on any API path; the
	// origin is echoed only when listed.
	for _, c := range []struct{ origin, path, allow string }{
		{app, "/me", app}, {app, "/no/such/route", app}, {"https://evil.example", "/me", ""}} {
		res, body = corsCall(t, srv, "OPTIONS", c.path, "", c.origin, map[string]string{
			"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type"})
		if res.StatusCode != http.StatusNoContent || body != "" ||
			res.Header.Get("Access-Control-Allow-Origin") != c.allow ||
			res.Header.Get("Access-Control-Allow-Methods") != "GET,HEAD,PUT,POST,DELETE,PATCH" ||
			res.Header.Get("Access-Control-Allow-Headers") != "authorization,content-type" ||
			res.Header.Get("Access-Control-Allow-Credentials") != "true" {
			t.Errorf("OPTIONS %s from %s: %d %v %q", c.path, c.origin, res.StatusCode, res.Header, body)
		}
	}
}

// A tunnel's public URL is the relay edge's, not the API's: a browser's
// Origin there is not checked by the API's rules.
func TestBrowserOriginOnTunnelURL(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	req, _ := http.NewRequest("POST", strings.TrimSuffix(srv.URL(), "/api/v1")+"/tunnels/nosuch/api/mcp/adapter-http/srv?k=x", nil)
	req.Header.Set("Origin", "https://evil.example")
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("tunnel URL with a foreign Origin: %d, want the unknown tunnel's 404", res.StatusCode)
	}
}

func TestWithAllowedOriginsRefusesNonOrigins(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"localhost:5173", "http://", "http://a.example/", "http://a.example/path", "http://u@a.example", ""} {
		if _, err := projectopstest.NewServer(projectopstest.WithAllowedOrigins(bad)); err == nil {
			t.Errorf("WithAllowedOrigins(%q) accepted", bad)
		}
	}
}
