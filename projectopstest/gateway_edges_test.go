package projectopstest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// Every request body under the API is capped at 1 MiB, as the service's
// gateway caps it before anything else: ingest routes (whose own 6 MiB
// cap sits behind it) and other writes alike, a request without a key
// too, and a body of unknown length as it is read.
func TestAPIBodyCap(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	big := strings.Repeat("x", 1536<<10)
	for _, c := range []struct{ path, key, body string }{
		{"/projects/" + ws.ProjectID + "/eval-ingest/report", ws.APIKey,
			`{"suiteName":"big","externalRunId":"big-1","results":[{"caseTitle":"c","passed":true,"query":"` + big + `"}]}`},
		{"/projects/" + ws.ProjectID + "/hosts", ws.APIKey, `{"name":"` + big + `","template":"claude"}`},
		{"/projects/" + ws.ProjectID + "/hosts", "", `{"name":"` + big + `"}`}, // before authentication
	} {
		r := tg.call(t, "POST", c.path, c.key, c.body)
		if b := r.wantError(t, shared.CodeValidation); r.status != http.StatusBadRequest || b.Message != "Request body exceeds 1MB limit" {
			t.Errorf("POST %s (key %v): %d %.200s", c.path, c.key != "", r.status, r.body)
		}
	}
	// Unknown length: refused as it is read.
	body := io.MultiReader(strings.NewReader(`{"name":"`), strings.NewReader(big), strings.NewReader(`"}`))
	if r := postUnsized(t, srv, "/projects/"+ws.ProjectID+"/hosts", ws.APIKey, body); r.status != http.StatusBadRequest ||
		!strings.Contains(string(r.body), "exceeds 1MB") {
		t.Errorf("chunked body: %d %.200s", r.status, r.body)
	}
	// Just under the cap: not refused for its size.
	under := `{"suiteName":"u","externalRunId":"under","results":[{"caseTitle":"c","passed":true,"query":"` +
		strings.Repeat("y", 1<<20-200) + `"}]}`
	if r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/eval-ingest/report", ws.APIKey, under); r.status != http.StatusOK {
		t.Errorf("body under 1 MiB: %d %.200s", r.status, r.body)
	}
}

// A recognised key is metered before anything else about it is checked,
// as the service's gateway meters it: an orphaned key's requests past the
// burst are 429, not 401.
func TestOrphanedKeyIsRateLimited(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	srv := projectopstest.NewTestServer(t, projectopstest.WithClock(clock.Now))
	ws := srv.Default()
	key, keyID, err := srv.AddAPIKey(ws.UserID, "orphan")
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.OrphanAPIKey(keyID); err != nil {
		t.Fatal(err)
	}
	tg := inproc(srv)
	for i := range projectopstest.DefaultRateBurst {
		if b := tg.call(t, "GET", "/me", key, nil).wantError(t, shared.CodeUnauthorized); b.Details["reason"] != "ORPHANED_KEY" {
			t.Fatalf("request %d: details %v", i, b.Details)
		}
	}
	r := tg.call(t, "GET", "/me", key, nil)
	if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") != "1" {
		t.Errorf("request past the burst: %d, Retry-After %q, %s", r.status, r.header.Get("Retry-After"), r.body)
	}
}

// An inbound x-request-id is reflected only when the service would keep
// it (8 to 128 letters, digits, '-', '_'); otherwise one is generated.
func TestInboundRequestIDShape(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	for inbound, kept := range map[string]bool{
		"trace-abc_123": true, strings.Repeat("a", 128): true, "abcdefgh": true,
		"abc": false, "short12": false, "trace.abc:123": false, "a/b+c=d~eeee": false, strings.Repeat("a", 129): false,
	} {
		req, err := http.NewRequestWithContext(t.Context(), "GET", projectopstest.InProcessURL+"/me", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+ws.APIKey)
		req.Header.Set("X-Request-Id", inbound)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		readResult(t, resp)
		if got := resp.Header.Get("X-Request-Id"); (got == inbound) != kept || got == "" {
			t.Errorf("inbound %q answered with %q; kept want %v", inbound, got, kept)
		}
	}
}

// Under the API a path no route serves needs a key first, as the service's
// gateway authenticates every path but the public catalog's: without one
// it is 401, with one 404 (a wrong method too, as the service answers it).
func TestUnmatchedPathsAuthenticateFirst(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	for _, c := range []struct {
		method, path string
		withKey      int
	}{
		{"GET", "/no-such-route", http.StatusNotFound},
		{"GET", "/me/", http.StatusNotFound},
		{"POST", "/host-catalog", http.StatusNotFound},
		{"DELETE", "/me", http.StatusNotFound},
	} {
		if r := tg.call(t, c.method, c.path, "", nil); r.status != http.StatusUnauthorized {
			t.Errorf("%s %s without a key: %d %s", c.method, c.path, r.status, r.body)
		}
		if r := tg.call(t, c.method, c.path, ws.APIKey, nil); r.status != c.withKey {
			t.Errorf("%s %s with a key: %d %s, want %d", c.method, c.path, r.status, r.body, c.withKey)
		}
	}
	if r := tg.call(t, "GET", "/host-catalog", "", nil); r.status != http.StatusOK {
		t.Errorf("public catalog without a key: %d", r.status)
	}
}

// In process, a request body of unknown length (a reader net/http cannot
// size, sent chunked over a socket) is read, not taken for empty.
func TestInProcessBodyOfUnknownLength(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	body := io.MultiReader(strings.NewReader(`{"name":"chunked",`), strings.NewReader(`"template":"claude"}`))
	if r := postUnsized(t, srv, "/projects/"+ws.ProjectID+"/hosts", ws.APIKey, body); r.status != http.StatusCreated ||
		!strings.Contains(string(r.body), `"chunked"`) {
		t.Errorf("body of unknown length: %d %.200s", r.status, r.body)
	}
}

// A GET's or HEAD's body is never read by the service's gateway, so its
// size refuses nothing.
func TestGETBodyNotCapped(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	big := strings.Repeat("x", 1536<<10)
	for _, m := range []string{"GET", "HEAD"} {
		if r := tg.call(t, m, "/me", ws.APIKey, big); r.status != http.StatusOK {
			t.Errorf("%s /me with a 1.5 MiB body: %d %.200s", m, r.status, r.body)
		}
	}
}

// postUnsized POSTs body, a reader net/http cannot size (sent chunked over
// a socket), to path in process with key.
func postUnsized(t *testing.T, srv *projectopstest.Server, path, key string, body io.Reader) result {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "POST", projectopstest.InProcessURL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return readResult(t, resp)
}
