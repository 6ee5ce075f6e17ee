package projectopstest_test

import (
	"io"
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

// sendToSurface sends one request to the key-management surface's path
// (keySurface + sub) on tg with auth as its whole Authorization header
// ("" for none) and body of length n (-1: unknown, sent chunked; nil: no
// body).
func sendToSurface(t *testing.T, tg target, method, sub, auth string, body io.Reader, n int64) result {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, tg.base+keySurface+sub, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.ContentLength = n
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := tg.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, keySurface+sub, err)
	}
	defer resp.Body.Close()
	b, err := readAll(resp)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, keySurface+sub, err)
	}
	return result{status: resp.StatusCode, header: resp.Header, body: b}
}

// session is a bearer the service takes for a web session token (an
// AuthKit JWT starts "eyJ"); the double never issues one.
const session = "Bearer eyJnot.a.session"

// validCreate is a body the service's create schema accepts.
const validCreate = `{"name":"ci key","organizationId":"org_1"}`

// Without a key the surface wants the web app's session: no bearer is 401,
// as is a bearer the service's prefix check does not take for a key (the
// scheme spelled in another case); a bearer that is not a key is a session
// token the double never issues, 401 on the service's routes (list,
// create with a valid body, delete one) and 404 elsewhere. Source:
// routes/web/api-keys.ts (bearerAuthMiddleware, then resolveSessionContext's
// 401) and middleware/bearer-auth.ts.
func TestKeyManagementWithoutKey(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tg := originOf(inproc(w.srv))
	for _, c := range []struct {
		method, sub, who, auth, body string
		want                         shared.Code
	}{
		{"GET", "", "no bearer", "", "", shared.CodeUnauthorized},
		{"DELETE", "/key_1/rotate", "no bearer", "", "", shared.CodeUnauthorized},
		{"GET", "", "lower-case scheme", "bearer " + w.keys["owner"], "", shared.CodeUnauthorized},
		{"GET", "", "session", session, "", shared.CodeUnauthorized},
		{"POST", "", "session", session, validCreate, shared.CodeUnauthorized},
		{"DELETE", "/key_1", "session", session, "", shared.CodeUnauthorized},
		{"GET", "/key_1", "session", session, "", shared.CodeNotFound},
		{"PATCH", "", "session", session, "", shared.CodeNotFound},
	} {
		t.Run(c.method+" "+keySurface+c.sub+" with "+c.who, func(t *testing.T) {
			var body io.Reader
			if c.body != "" {
				body = strings.NewReader(c.body)
			}
			sendToSurface(t, tg, c.method, c.sub, c.auth, body, int64(len(c.body))).wantError(t, c.want)
		})
	}
}

// A create with a session reads and checks its body before the session is
// resolved, as the service's POST handler does (readJsonBody, then
// parseWithSchema with its create schema, then resolveSessionContext, in
// routes/web/api-keys.ts): no body or one JSON.parse refuses is 400
// "Invalid JSON body", one the schema {name: 1 to 120 characters,
// organizationId: non-empty string} refuses is 400 with zod's first issue
// prefixed by its field, and only a valid body meets the session's 401.
func TestKeyManagementCreateChecksBodyBeforeSession(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tg := originOf(inproc(w.srv))
	const badJSON = "Invalid JSON body"
	for _, c := range []struct {
		what    string
		body    io.Reader
		n       int64
		field   string
		message string // "" with no field: the session's 401
	}{
		{"no body", nil, 0, "", badJSON},
		{"blank", strings.NewReader("  "), 2, "", badJSON},
		{"not JSON", strings.NewReader("not json"), 8, "", badJSON},
		{"trailing data", strings.NewReader(validCreate + "x"), int64(len(validCreate)) + 1, "", badJSON},
		{"an array", strings.NewReader("[]"), 2, "", "Invalid input: expected object, received array"},
		{"null", strings.NewReader("null"), 4, "", "Invalid input: expected object, received null"},
		{"no organizationId", strings.NewReader(`{"name":"k"}`), 12, "organizationId",
			"organizationId: Invalid input: expected string, received undefined"},
		{"nothing", strings.NewReader(`{}`), 2, "name", "name: Invalid input: expected string, received undefined"},
		{"a numeric name", strings.NewReader(`{"name":1,"organizationId":"o"}`), 31, "name",
			"name: Invalid input: expected string, received number"},
		{"an empty name", strings.NewReader(`{"name":"","organizationId":"o"}`), 32, "name",
			"name: Too small: expected string to have >=1 characters"},
		{"a null organizationId", strings.NewReader(`{"name":"k","organizationId":null}`), 34, "organizationId",
			"organizationId: Invalid input: expected string, received null"},
		{"an empty organizationId", strings.NewReader(`{"name":"k","organizationId":""}`), 32, "organizationId",
			"organizationId: Too small: expected string to have >=1 characters"},
		{"a name of 121 characters", jsonCreate(strings.Repeat("x", 121)), -1, "name",
			"name: Too big: expected string to have <=120 characters"},
		// zod counts UTF-16 code units: 61 emoji are 122.
		{"a name of 61 emoji", jsonCreate(strings.Repeat("😀", 61)), -1, "name",
			"name: Too big: expected string to have <=120 characters"},
		{"a name of 120 characters", jsonCreate(strings.Repeat("x", 120)), -1, "", ""},
		{"a byte-order mark", strings.NewReader("\uFEFF" + validCreate), -1, "", ""},
		{"other keys", strings.NewReader(`{"name":"k","organizationId":"o","scope":1}`), -1, "", ""},
		{"a valid body of unknown length", io.MultiReader(strings.NewReader(validCreate)), -1, "", ""},
		// The handler's readJsonBody catches bodyLimit's error on a body
		// of unknown length with any other (a declared length over the
		// cap never reaches it: see TestKeyManagementBehindAppChecks).
		{"an unknown length over the cap", io.MultiReader(strings.NewReader(strings.Repeat(" ", 1<<20+1))), -1, "", badJSON},
	} {
		t.Run(c.what, func(t *testing.T) {
			r := sendToSurface(t, tg, "POST", "", session, c.body, c.n)
			if c.message == "" {
				if b := r.wantError(t, shared.CodeUnauthorized); b.Message != "Invalid or expired session token" {
					t.Errorf("message %q, want the session's refusal", b.Message)
				}
				return
			}
			b := r.wantError(t, shared.CodeValidation)
			if got, _ := b.Details["field"].(string); b.Message != c.message || got != c.field {
				t.Errorf("message %q, field %q; want %q, %q", b.Message, got, c.message, c.field)
			}
		})
	}
}

// jsonCreate is a create body with name and a valid organizationId.
func jsonCreate(name string) io.Reader {
	return strings.NewReader(`{"name":"` + name + `","organizationId":"org_1"}`)
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

// An sk_ bearer is refused on its prefix whatever its length: one over the
// 8 KiB Authorization cap the double keeps on the API is still 403 here
// (the service's Node server takes a 16 KiB head, and its surface looks
// at nothing past "Bearer sk_"), and a session bearer that long still
// meets the session's 401. The cap holds on the API, and a head over
// MaxHeaderBytes is still 431 before the surface.
func TestKeyManagementLongBearer(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	long := strings.Repeat("a", 9000)
	for _, tg := range targets(t, w.srv) {
		site := originOf(tg)
		b := sendToSurface(t, site, "GET", "", "Bearer sk_"+long, nil, 0).wantError(t, shared.CodeForbidden)
		if b.Message != "API keys cannot manage other API keys" {
			t.Errorf("%s: a 9 KB key: message %q, want the key's refusal", tg.name, b.Message)
		}
		b = sendToSurface(t, site, "GET", "", "Bearer eyJ"+long, nil, 0).wantError(t, shared.CodeUnauthorized)
		if b.Message != "Invalid or expired session token" {
			t.Errorf("%s: a 9 KB session: message %q, want the session's refusal", tg.name, b.Message)
		}
		b = tg.call(t, "GET", "/me", "sk_"+long, nil).wantError(t, shared.CodeUnauthorized)
		if b.Message != "Authorization header is too large" {
			t.Errorf("%s: a 9 KB key on the API: message %q, want the header cap's", tg.name, b.Message)
		}
		r := sendToSurface(t, site, "GET", "", "Bearer sk_"+strings.Repeat("a", projectopstest.MaxHeaderBytes), nil, 0)
		if r.status != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("%s: a head over MaxHeaderBytes: %d %s, want 431", tg.name, r.status, r.body)
		}
	}
}

// The app's checks come before the surface's refusal of a key, as the
// service's app middleware comes before its routes: a foreign origin is
// refused with the origin check's message, a preflight is answered 204;
// and the surface never reads a body, so one of unknown length over the
// cap is still the key's 403.
func TestKeyManagementKeyMeetsAppChecksFirst(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	tg := originOf(inproc(srv))
	key := "Bearer " + srv.Default().APIKey
	send := func(method, origin string, body io.Reader) result {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, tg.base+keySurface, body)
		if err != nil {
			t.Fatal(err)
		}
		if body != nil {
			req.ContentLength = -1 // sent chunked
		}
		req.Header.Set("Authorization", key)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := tg.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := readAll(resp)
		if err != nil {
			t.Fatal(err)
		}
		return result{status: resp.StatusCode, header: resp.Header, body: b}
	}
	if b := send("GET", "https://evil.example", nil).wantError(t, shared.CodeForbidden); b.Message != "Request origin not allowed." {
		t.Errorf("a key from a foreign origin: message %q, want the origin check's", b.Message)
	}
	if r := send("OPTIONS", "", nil); r.status != http.StatusNoContent || len(r.body) != 0 {
		t.Errorf("OPTIONS with a key: %d %q, want 204 and no body", r.status, r.body)
	}
	big := io.MultiReader(strings.NewReader(strings.Repeat(" ", 2<<20)))
	if b := send("POST", "", big).wantError(t, shared.CodeForbidden); b.Message != "API keys cannot manage other API keys" {
		t.Errorf("a key with a chunked body over the cap: message %q, want the key's refusal", b.Message)
	}
}

// The request log attributes a request on the surface to a live key only:
// a revoked or made-up key is refused like a live one, and logged with no
// key id.
func TestKeyManagementLogsNoDeadKey(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tg := originOf(inproc(w.srv))
	for name, key := range map[string]string{"revoked": w.keys["revoked"], "made-up": "sk_made_up"} {
		sendToSurface(t, tg, "GET", "", "Bearer "+key, nil, 0).wantError(t, shared.CodeForbidden)
		log := w.srv.Requests()
		if rq := log[len(log)-1]; rq.Path != keySurface || rq.KeyID != "" {
			t.Errorf("a %s key: logged %+v, want %s with no key id", name, rq, keySurface)
		}
	}
}
