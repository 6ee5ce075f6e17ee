package projectopstest_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

// TestDotSegmentsResolved: the service's server builds each request's URL
// with WHATWG new URL, which resolves "." and ".." segments (also escaped
// as %2e) before routing, so GET /api/v1/projects/x/../../me is served as
// GET /api/v1/me, and the request log shows the path served. A trailing
// dot segment leaves a trailing slash and an empty segment stays: both
// are still 404, as the service's routes have neither.
func TestDotSegmentsResolved(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	addr := loopbackAddr(t, srv)
	auth := map[string]string{"Authorization": "Bearer " + ws.APIKey}
	cases := []rawGet{
		{"/api/v1/./me", http.StatusOK, "/api/v1/me"},
		{"/api/v1/projects/x/../../me", http.StatusOK, "/api/v1/me"},
		{"/api/v1/projects/%2e%2e/me", http.StatusOK, "/api/v1/me"},
		{"/api/v1/projects/.%2E/%2E/me", http.StatusOK, "/api/v1/me"},
		{"/api/v1/projects/" + ws.ProjectID + "/hosts/../servers", http.StatusOK, "/api/v1/projects/" + ws.ProjectID + "/servers"},
		{"/../../api/v1/me?x=1", http.StatusOK, "/api/v1/me"}, // never above the root
		{"/api/v1/me/.", http.StatusNotFound, "/api/v1/me/"},
		{"/api/v1/me/x/..", http.StatusNotFound, "/api/v1/me/"},
		{"/api/v1/projects//x/../me", http.StatusNotFound, "/api/v1/projects//me"},
	}
	for _, c := range cases {
		getLogged(t, srv, addr, auth, c)
	}
}

// TestDotSegmentsResolvedInProcess: a Go client keeps a URL's dot
// segments as written; the in-process transport's requests are resolved
// as a socket's are.
func TestDotSegmentsResolvedInProcess(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	for _, p := range []string{"/projects/x/../../me", "/projects/%2e%2e/me", "/./me"} {
		if r := tg.call(t, "GET", p, ws.APIKey, nil); r.status != http.StatusOK {
			t.Errorf("GET %s: %d %s; want 200", p, r.status, r.body)
		}
	}
}

// TestDotSegmentsInTunnelURLs: the tunnel edge checks the scope of, and
// relays, the resolved path: a ".." inside the scope reaches the host
// resolved, and one that climbs out of it finds no tunnel (404), so no
// path outside the scope is ever relayed.
func TestDotSegmentsInTunnelURLs(t *testing.T) {
	t.Parallel()
	f := newRelayFixture(t, true)
	a := f.dial(t)
	scope := strings.TrimPrefix(f.publicU.EscapedPath(), "/tunnels/"+a.hello.Slug)
	if got, _, _ := strings.Cut(relayPath(t, f, a, "/x/../y/%2e/z"), "?"); got != scope+"/y/z" {
		t.Errorf("relayed path %q, want %q", got, scope+"/y/z")
	}
	addr := loopbackAddr(t, f.srv)
	for _, extra := range []string{"/../other", "/%2e%2e/%2e%2e/x"} {
		target := f.publicU.EscapedPath() + extra + "?" + f.publicU.RawQuery
		status, _, body := rawRequest(t, addr, "GET", target, nil, "")
		if status != http.StatusNotFound {
			t.Errorf("%s after the scope: %d %.160s; want 404", extra, status, body)
		}
	}
	select {
	case m := <-a.in:
		t.Errorf("the host got %s %q; want nothing outside the scope", m.T, m.URL)
	default:
	}
}

// TestDotSegmentsStreamInProcess: the in-process transport decides from
// the resolved path whether a route streams, so a tunnel URL written with
// dot segments still streams its answer (the caller has the head while
// the host is still sending) instead of waiting for its end.
func TestDotSegmentsStreamInProcess(t *testing.T) {
	t.Parallel()
	f := newRelayFixture(t, false)
	a := f.dial(t)
	u := *f.publicU
	u.Path, u.RawPath = "/api/v1/../.."+u.Path, "" // only the resolved path is a tunnel's
	req, _ := http.NewRequestWithContext(t.Context(), "GET", u.String(), nil)
	respc := f.do(req)
	m := <-a.in
	a.sendText(`{"t":"res","id":%d,"status":200,"headers":[["content-type","text/event-stream"]]}`, m.ID)
	a.sendChunk(m.ID, "data: 1\n\n")
	select {
	case resp := <-respc:
		a.sendText(`{"t":"res_end","id":%d}`, m.ID)
		resp.Body.Close()
	case <-time.After(relayWait): // a deadline for a hung double, not a timing assertion
		t.Fatal("no response head before the host ended its answer: the route did not stream")
	}
}

// TestBackslashReadAsSlash: the service's server reads a raw backslash in
// the path as a slash (WHATWG new URL does, in an http URL), before its
// dot segments are resolved, so GET /api/v1\me is GET /api/v1/me. An
// escaped backslash (%5C) is an ordinary character there, as here.
func TestBackslashReadAsSlash(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	addr := loopbackAddr(t, srv)
	auth := map[string]string{"Authorization": "Bearer " + ws.APIKey}
	cases := []rawGet{
		{`/api/v1\me`, http.StatusOK, "/api/v1/me"},
		{`/api/v1/projects/x\..\..\me`, http.StatusOK, "/api/v1/me"},
		{`/api/v1/projects/x/..\..\me?x=\`, http.StatusOK, "/api/v1/me"},
		{`/api/v1/projects/x/.%2e\%2E.\me`, http.StatusOK, "/api/v1/me"},
		{"/api/v1%5Cme", http.StatusNotFound, `/api/v1\me`},
		{`/api/v1\me\`, http.StatusNotFound, "/api/v1/me/"},
	}
	for _, c := range cases {
		getLogged(t, srv, addr, auth, c)
	}
}

// TestBackslashInTunnelURLs: the tunnel edge checks the scope of, and
// relays, the path with its backslashes read as slashes, as the host (and
// the service's edge) read them: a "..\" that climbs out of the scope
// finds no tunnel (404) and nothing is relayed; one inside it reaches the
// host resolved.
func TestBackslashInTunnelURLs(t *testing.T) {
	t.Parallel()
	f := newRelayFixture(t, true)
	a := f.dial(t)
	for _, extra := range []string{`/..\..\other`, `\..\..\other`, `/.%2e\%2e.\x`} {
		refusedUnrelayed(t, f, a, extra)
	}
	scope := strings.TrimPrefix(f.publicU.EscapedPath(), "/tunnels/"+a.hello.Slug)
	if got, _, _ := strings.Cut(relayPath(t, f, a, `\x\..\y\z`), "?"); got != scope+"/y/z" {
		t.Errorf("relayed path %q, want %q", got, scope+"/y/z")
	}
}

// refusedUnrelayed sends a GET to the tunnel's public URL with extra
// written raw after its path, and fails the test unless it is answered
// 404 with nothing relayed to the host (a relayed request is answered, so
// the test goes on).
func refusedUnrelayed(t *testing.T, f *relayFixture, a *agent, extra string) {
	t.Helper()
	u := *f.publicU
	u.Opaque = u.EscapedPath() + extra // the request line as written
	req, _ := http.NewRequestWithContext(t.Context(), "GET", f.publicU.String(), nil)
	req.URL = &u
	respc := f.do(req)
	select {
	case m := <-a.in:
		relayed, _, _ := strings.Cut(m.URL, "?") // not the secret
		t.Errorf("%q: the host got %s %q; want 404, nothing relayed", extra, m.T, relayed)
		a.sendText(`{"t":"res","id":%d,"status":204,"headers":[]}`, m.ID)
		a.sendText(`{"t":"res_end","id":%d}`, m.ID)
		recvResp(t, respc)
	case resp := <-respc:
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%q: %d, want 404", extra, resp.StatusCode)
		}
	}
}

// TestFragmentInRequestLine: a raw '#' in a request target's path starts
// a fragment for the service's server (WHATWG new URL), which it never
// resolves, and its routes read the path up to the '?', fragment and all,
// so no route matches: the double answers 404 in the envelope and resolves
// no dot segment after the '#' (it once served
// /api/v1/me#/../../../api/v1/projects as /api/v1/projects). A '#' in the
// query is the query's, as there. A tunnel URL with a fragment is 404 too,
// and nothing is relayed. What follows the '#' is never shown (it may hold
// anything pasted with a URL): the log has "#…" in its place.
func TestFragmentInRequestLine(t *testing.T) {
	t.Parallel()
	f := newRelayFixture(t, true)
	a := f.dial(t)
	ws := f.srv.Default()
	addr := loopbackAddr(t, f.srv)
	auth := map[string]string{"Authorization": "Bearer " + ws.APIKey}
	cases := []rawGet{
		{"/api/v1/me#x", http.StatusNotFound, "/api/v1/me#…"},
		{"/api/v1/me#/../../../api/v1/projects", http.StatusNotFound, "/api/v1/me#…"},
		{`/api/v1/me#\..\x`, http.StatusNotFound, "/api/v1/me#…"},
		{"/api/v1/me#x?limit=1", http.StatusNotFound, "/api/v1/me#…"},
		{"/api/v1/me?x=1#y", http.StatusOK, "/api/v1/me"},
		{"/api/v1/projects/x/../../me?x=#/../y", http.StatusOK, "/api/v1/me"},
	}
	for _, c := range cases {
		if body := getLogged(t, f.srv, addr, auth, c); c.status == http.StatusNotFound && !strings.Contains(body, `"code":"NOT_FOUND"`) {
			t.Errorf("GET %s: body %.160s; want the NOT_FOUND envelope", c.target, body)
		}
	}
	for _, extra := range []string{"#x", "/mcp#/../x", "#?x=1"} {
		refusedUnrelayed(t, f, a, extra)
	}
}

// rawGet is a GET whose target is written raw (rawRequest), the status it
// gets and the path the request log shows for it.
type rawGet struct {
	target string
	status int
	logged string
}

// getLogged sends c with the headers hdr to the server srv listens with
// at addr, fails the test unless c gets its status and is logged as
// c.logged, and returns the body.
func getLogged(t *testing.T, srv *projectopstest.Server, addr string, hdr map[string]string, c rawGet) string {
	t.Helper()
	status, _, body := rawRequest(t, addr, "GET", c.target, hdr, "")
	if status != c.status {
		t.Errorf("GET %s: %d %.160s; want %d", c.target, status, body, c.status)
	}
	reqs := srv.Requests()
	if got := reqs[len(reqs)-1].Path; got != c.logged {
		t.Errorf("GET %s: logged as %q, want %q", c.target, got, c.logged)
	}
	return body
}
