package projectopstest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// securityHeaders are the headers the service's app sets on every answer
// (server/middleware/security-headers.ts, mounted on "*" before its origin
// check, CORS, body cap and authentication).
var securityHeaders = map[string]string{
	"X-Content-Type-Options": "nosniff",
	"X-Frame-Options":        "SAMEORIGIN",
	"X-Xss-Protection":       "1; mode=block",
	"Referrer-Policy":        "strict-origin-when-cross-origin",
}

// wantSecurityHeaders fails t unless h holds exactly the service app's
// security headers, one value each.
func wantSecurityHeaders(t *testing.T, what string, h http.Header) {
	t.Helper()
	for k, v := range securityHeaders {
		if got := h.Values(k); len(got) != 1 || got[0] != v {
			t.Errorf("%s: header %s = %q, want [%q]", what, k, got, v)
		}
	}
}

// TestSecurityHeadersOnEveryAnswer: every answer the double makes in the
// service app's place carries its security headers, in process and on
// loopback: success, the errors of every layer (origin check, preflight,
// authentication, routing, body validation, an injected fault) and the
// public host catalog.
func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	srv.SetFault("GET /projects", projectopstest.Fault{Status: http.StatusServiceUnavailable})
	cases := []struct {
		name, method, path, key, body string
		hdr                           map[string]string
		status                        int
	}{
		{"200 me", "GET", "/me", ws.APIKey, "", nil, http.StatusOK},
		{"401 no key", "GET", "/me", "", "", nil, http.StatusUnauthorized},
		{"404 unknown project", "GET", "/projects/prj_nope/servers", ws.APIKey, "", nil, http.StatusNotFound},
		{"404 no route", "GET", "/nope", ws.APIKey, "", nil, http.StatusNotFound},
		{"400 bad body", "POST", "/projects/" + ws.ProjectID + "/hosts", ws.APIKey, "[]", nil, http.StatusBadRequest},
		{"403 foreign origin", "GET", "/me", ws.APIKey, "", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
		{"204 preflight", "OPTIONS", "/me", "", "", map[string]string{
			"Origin": "http://evil.example", "Access-Control-Request-Method": "GET"}, http.StatusNoContent},
		{"public host catalog", "GET", "/host-catalog", "", "", nil, http.StatusOK},
		{"injected fault", "GET", "/projects", ws.APIKey, "", nil, http.StatusServiceUnavailable},
	}
	for _, tg := range targets(t, srv) {
		for _, c := range cases {
			req, err := http.NewRequestWithContext(t.Context(), c.method, tg.base+c.path, strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			if c.key != "" {
				req.Header.Set("Authorization", "Bearer "+c.key)
			}
			for k, v := range c.hdr {
				req.Header.Set(k, v)
			}
			resp, err := tg.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != c.status {
				t.Errorf("%s %s: status %d, want %d", tg.name, c.name, resp.StatusCode, c.status)
			}
			wantSecurityHeaders(t, tg.name+" "+c.name, resp.Header)
		}
	}
}

// TestSecurityHeadersOutsideTheAPI: a path outside /api/v1 is the app's
// too (its middleware is mounted on "*").
func TestSecurityHeadersOutsideTheAPI(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	for _, tg := range targets(t, srv) {
		base := strings.TrimSuffix(tg.base, "/api/v1")
		resp, err := tg.client.Get(base + "/health-nope")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		wantSecurityHeaders(t, tg.name+" /health-nope", resp.Header)
	}
}

// TestSecurityHeadersPerResponse: the in-process transport may hand the
// handler's header map, values and all, to the client; a client changing
// a value must not change what later responses carry.
func TestSecurityHeadersPerResponse(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	tg := inproc(srv)
	key := srv.Default().APIKey
	for _, method := range []string{"OPTIONS", "GET"} {
		req, _ := http.NewRequestWithContext(t.Context(), method, tg.base+"/me", nil)
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Origin", "http://evil.example")
		resp, err := tg.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		for k := range securityHeaders {
			if v := resp.Header[k]; len(v) > 0 {
				v[0] = "changed by the client"
			}
		}
	}
	wantSecurityHeaders(t, "a later response", tg.call(t, "GET", "/me", key, nil).header)
}

// TestSecurityHeadersNotOnTunnelOrStorageURLs: a tunnel's public URL is
// served by the service's tunnel edge and a minted upload URL by its
// storage, not by its app, so the double adds none of the app's headers
// there: the edge's own errors carry none, and a relayed answer carries
// the headers the tunnel host sent, no more.
func TestSecurityHeadersNotOnTunnelOrStorageURLs(t *testing.T) {
	t.Parallel()
	noneOf := func(what string, h http.Header) {
		t.Helper()
		for k := range securityHeaders {
			if v, ok := h[k]; ok {
				t.Errorf("%s: header %s = %q, want none", what, k, v)
			}
		}
	}
	f := newRelayFixture(t, true)
	resp, _ := recvResp(t, f.public(t.Context(), "GET", "", "", nil))
	if resp.StatusCode != http.StatusBadGateway {
		t.Fatalf("no host: status %d, want 502", resp.StatusCode)
	}
	noneOf("tunnel URL without a host", resp.Header)

	a := f.dial(t)
	respc := f.public(context.Background(), "GET", "", "", nil)
	m := <-a.in
	a.sendText(`{"t":"res","id":%d,"status":200,"headers":[["x-host","1"]]}`, m.ID)
	a.sendText(`{"t":"res_end","id":%d}`, m.ID)
	resp, _ = recvResp(t, respc)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Host") != "1" {
		t.Fatalf("relayed: %d %v", resp.StatusCode, resp.Header)
	}
	noneOf("relayed answer", resp.Header)

	ws := f.srv.Default()
	var up struct {
		UploadURL string `json:"uploadUrl"`
	}
	f.tg.call(t, "POST", "/projects/"+ws.ProjectID+"/eval-ingest/artifacts/upload-url", ws.APIKey, nil).decode(t, &up)
	i := strings.Index(up.UploadURL, "/eval-ingest-uploads/")
	if i < 0 {
		t.Fatalf("upload URL %q", up.UploadURL)
	}
	r := f.tg.call(t, "POST", up.UploadURL[i:], "", "data")
	if r.status != http.StatusOK {
		t.Fatalf("upload: %d %s", r.status, r.body)
	}
	noneOf("upload URL", r.header)
}
