package projectopstest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// keySurface is the key-management surface's path: the service's web app
// serves it under /api/web, outside the API's /api/v1
// (mcpjam-inspector/server/routes/web/index.ts mounts it on the web
// router, which server/index.ts and app.ts mount at /api/web).
const keySurface = "/api/web/api-keys"

// originOf is tg with its base cut to the scheme and host, for paths
// outside /api/v1.
func originOf(tg target) target {
	tg.base = strings.TrimSuffix(tg.base, "/api/v1")
	return tg
}

// API keys cannot manage API keys (api-spec.md §5): every method and
// sub-path of the surface refuses any "Bearer sk_…" 403 FORBIDDEN on the
// prefix alone, before the key is looked up. A revoked, an orphaned and a
// made-up key get the same 403 as a live one, so the surface cannot be
// used to probe whether a key works. Source: routes/web/api-keys.ts, the
// first apiKeys.use("*") middleware (the same at 3a1a53223 and HEAD), and
// docs/reference/public-api.mdx, "Scope".
func TestKeyManagementRefusesEveryKey(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	keys := map[string]string{
		"valid":    w.keys["owner"],
		"revoked":  w.keys["revoked"],
		"orphaned": w.keys["orphaned"],
		"made-up":  "sk_not_a_real_key_0123456789",
	}
	for _, tg := range targets(t, w.srv) {
		tg := originOf(tg)
		for name, key := range keys {
			for _, c := range []struct{ method, path, body string }{
				{"GET", keySurface, ""}, {"HEAD", keySurface, ""},
				{"POST", keySurface, `{"name":"new key"}`},
				{"GET", keySurface + "/", ""}, {"GET", keySurface + "/key_1", ""},
				{"DELETE", keySurface + "/key_1", ""}, {"PUT", keySurface + "/key_1", `{}`},
				{"PATCH", keySurface + "/key_1", `{}`}, {"POST", keySurface + "/key_1/rotate", `{}`},
			} {
				r := tg.call(t, c.method, c.path, key, c.body)
				if c.method == "HEAD" {
					if r.status != http.StatusForbidden {
						t.Errorf("%s: HEAD %s with a %s key = %d, want 403", tg.name, c.path, name, r.status)
					}
					continue
				}
				if r.status != http.StatusForbidden || !strings.Contains(string(r.body), `"code":"FORBIDDEN"`) {
					t.Errorf("%s: %s %s with a %s key = %d %s, want 403 FORBIDDEN", tg.name, c.method, c.path, name, r.status, r.body)
				}
			}
		}
	}
	// The request log names the surface and whose live key it was.
	var seen bool
	for _, rq := range w.srv.Requests() {
		if rq.Path == keySurface && rq.Method == "GET" && rq.KeyID != "" {
			seen = true
			if rq.Route != keySurface || rq.Status != http.StatusForbidden {
				t.Errorf("logged %+v, want route %s and status 403", rq, keySurface)
			}
		}
	}
	if !seen {
		t.Errorf("no logged GET %s attributed to the live key", keySurface)
	}
}

// Without a key the surface wants the web app's session: no bearer is 401,
// as is a bearer the service's prefix check does not take for a key (the
// scheme spelled in another case); a bearer that is not a key is a session
// token the double never issues, 401 on the service's routes (list,
// create, delete one) and 404 elsewhere. Source: routes/web/api-keys.ts
// (bearerAuthMiddleware, then resolveSessionContext's 401) and
// middleware/bearer-auth.ts.
func TestKeyManagementWithoutKey(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tg := originOf(inproc(w.srv))
	const session = "Bearer eyJnot.a.session"
	for _, c := range []struct {
		method, path, who, auth string
		want                    shared.Code
	}{
		{"GET", keySurface, "no bearer", "", shared.CodeUnauthorized},
		{"DELETE", keySurface + "/key_1/rotate", "no bearer", "", shared.CodeUnauthorized},
		{"GET", keySurface, "lower-case scheme", "bearer " + w.keys["owner"], shared.CodeUnauthorized},
		{"GET", keySurface, "session", session, shared.CodeUnauthorized},
		{"POST", keySurface, "session", session, shared.CodeUnauthorized},
		{"DELETE", keySurface + "/key_1", "session", session, shared.CodeUnauthorized},
		{"GET", keySurface + "/key_1", "session", session, shared.CodeNotFound},
		{"PATCH", keySurface, "session", session, shared.CodeNotFound},
	} {
		req, err := http.NewRequestWithContext(t.Context(), c.method, tg.base+c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		resp, err := tg.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := readAll(resp)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		t.Run(c.method+" "+c.path+" with "+c.who, func(t *testing.T) {
			result{status: resp.StatusCode, header: resp.Header, body: b}.wantError(t, c.want)
		})
	}
}

// The service has no key-management route under /api/v1: there a key
// gets what any unknown API path gets, the gateway's check of the key and
// then 404 NOT_FOUND.
func TestKeyManagementNotUnderAPIVersion(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, tg := range targets(t, w.srv) {
		for _, path := range []string{"/api-keys", "/api-keys/key_1"} {
			tg.call(t, "GET", path, w.keys["owner"], nil).wantError(t, shared.CodeNotFound)
			tg.call(t, "GET", path, w.keys["revoked"], nil).wantError(t, shared.CodeUnauthorized)
			tg.call(t, "GET", path, "", nil).wantError(t, shared.CodeUnauthorized)
		}
	}
	for _, route := range w.srv.Routes() {
		if strings.Contains(route, "api-keys") {
			t.Errorf("Routes lists %q: the surface is not under /api/v1", route)
		}
	}
}

// The surface is the service's app's: a foreign browser origin is refused
// and a preflight answered as on the API, and a body over the cap is
// refused (400, as the service's /api/web body limit answers) before the
// key's refusal; its Date is the injected clock's. Source: server/app.ts and server/index.ts (origin
// validation, cors and webBodyLimit ahead of the /api/web routes).
func TestKeyManagementBehindAppChecks(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithClock(newFakeClock().Now))
	url := strings.TrimSuffix(srv.URL(), "/api/v1") + keySurface
	do := func(method, origin, body string, hdr map[string]string) *http.Response {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if origin != "" {
			// No key: only the origin check can answer 403.
			req.Header.Set("Origin", origin)
		} else {
			req.Header.Set("Authorization", "Bearer "+srv.Default().APIKey)
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// check asserts res's status and envelope code (none: no body) and,
	// past the origin check, the app's cors and security headers.
	check := func(what string, res *http.Response, status int, code shared.Code) {
		t.Helper()
		defer res.Body.Close()
		b, err := readAll(res)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(what, func(t *testing.T) {
			r := result{status: res.StatusCode, header: res.Header, body: b}
			if code == "" {
				if r.status != status || len(b) != 0 {
					t.Errorf("%d %q, want %d and no body", r.status, b, status)
				}
				return
			}
			r.wantError(t, code)
			if res.Header.Get("X-Content-Type-Options") != "nosniff" ||
				what != "foreign origin" && res.Header.Get("Access-Control-Allow-Credentials") != "true" {
				t.Errorf("headers %v, want the API's cors and security headers", res.Header)
			}
		})
	}
	check("foreign origin", do("GET", "https://evil.example", "", nil), http.StatusForbidden, shared.CodeForbidden)
	res := do("OPTIONS", "https://evil.example", "", map[string]string{"Access-Control-Request-Method": "POST"})
	if got := res.Header.Get("Access-Control-Allow-Methods"); got == "" {
		t.Errorf("preflight: no Access-Control-Allow-Methods in %v", res.Header)
	}
	check("preflight", res, http.StatusNoContent, "")
	check("body over the cap", do("POST", "", strings.Repeat(" ", 1<<20+1), nil), http.StatusBadRequest, shared.CodeValidation)
	res = do("POST", "", `{}`, nil)
	if got := res.Header.Get("Date"); got != "Thu, 09 Jul 2026 12:00:00 GMT" {
		t.Errorf("Date = %q, want the injected clock's, as on the API", got)
	}
	check("key", res, http.StatusForbidden, shared.CodeForbidden)
}
