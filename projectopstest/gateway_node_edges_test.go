package projectopstest_test

// More of what the service's Node server and app do before its routes:
// the head cap on every request of a connection and in process, counted as
// Node counts it; browsers' repeated Origin headers; storage's upload
// URLs; the origins WithAllowedOrigins takes.

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// The 16 KiB cap holds for every request of a kept-alive connection, as
// Node's maxHeaderSize does (net/http's own limit reads up to 4 KiB of the
// next head uncounted).
func TestHeaderCapOnKeepAliveConnection(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	conn, prefix := dialRaw(t, srv)
	br := bufio.NewReader(conn)
	for i, c := range []struct{ size, status int }{
		{10, http.StatusOK},
		{18 << 10, http.StatusRequestHeaderFieldsTooLarge}, // an 18 KiB block: over Node's 16 KiB
	} {
		if _, err := io.WriteString(conn, "GET "+prefix+"/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+ws.APIKey+
			"\r\nX-Big: "+strings.Repeat("b", c.size)+"\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != c.status {
			t.Errorf("request %d on one connection, a %d-byte header: %d, want %d", i+1, c.size, res.StatusCode, c.status)
		}
	}
}

// The in-process transport (the recommended path) caps the head as the
// loopback listener does.
func TestHeaderCapInProcess(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	req, _ := http.NewRequest("GET", srv.URL()+"/me", nil)
	req.Header.Set("Authorization", "Bearer "+ws.APIKey)
	req.Header.Set("X-Big", strings.Repeat("b", 20<<10))
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("in process, a 20 KiB header: %d, want 431 as on loopback (and at the service)", res.StatusCode)
	}
}

// Node counts the URL, header names and values (not the method, version,
// ": " or CRLFs) against maxHeaderSize: many short headers whose names and
// values total ~14 KiB (a head of ~16.5 KiB on the wire) are served.
func TestHeaderCapCountsAsNode(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	conn, prefix := dialRaw(t, srv)
	var b strings.Builder
	b.WriteString("GET " + prefix + "/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + ws.APIKey + "\r\n")
	nodeCount := len(prefix+"/me") + len("Host") + 1 + len("Authorization") + len("Bearer "+ws.APIKey)
	for i := range 600 {
		name, value := fmt.Sprintf("X%03d", i), strings.Repeat("v", 20)
		b.WriteString(name + ": " + value + "\r\n")
		nodeCount += len(name) + len(value)
	}
	b.WriteString("\r\n")
	if nodeCount >= 16<<10 {
		t.Fatalf("test setup: Node would count %d bytes", nodeCount)
	}
	if _, err := io.WriteString(conn, b.String()); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("a head of %d bytes Node counts as %d (< 16384): %d, want 200", b.Len(), nodeCount, res.StatusCode)
	}
}

// The in-process transport hands a response's header map to the client: a
// client that edits a value in place (an in-place filter, say) changes
// that response only, never the headers of later responses.
func TestSharedCORSHeaderValues(t *testing.T) {
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	res, _ := corsCall(t, srv, "GET", "/me", ws.APIKey, "", nil)
	if v := res.Header["Vary"]; len(v) == 1 {
		v[0] = "Mutated"
	}
	if v := res.Header["Access-Control-Allow-Credentials"]; len(v) == 1 {
		v[0] = "false"
	}
	other := projectopstest.NewTestServer(t, noLimit)
	res, _ = corsCall(t, other, "GET", "/me", other.Default().APIKey, "", nil)
	if res.Header.Get("Vary") != "Origin" || res.Header.Get("Access-Control-Allow-Credentials") != "true" {
		t.Errorf("another server's response after a client edited an earlier one: Vary %q, ACAC %q",
			res.Header.Get("Vary"), res.Header.Get("Access-Control-Allow-Credentials"))
	}
}

// Repeated Origin headers reach the service as one value joined with ", "
// (Node's Headers), which no listed origin equals: 403.
func TestRepeatedOriginHeaders(t *testing.T) {
	t.Parallel()
	const app = "http://localhost:5173"
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithAllowedOrigins(app))
	ws := srv.Default()
	for _, tg := range []target{inproc(srv)} {
		req, _ := http.NewRequest("GET", tg.base+"/me", nil)
		req.Header.Set("Authorization", "Bearer "+ws.APIKey)
		req.Header.Add("Origin", app)
		req.Header.Add("Origin", "https://evil.example")
		res, err := tg.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("%s: Origin %q then %q: %d, want 403 (the service sees %q)", tg.name, app, "https://evil.example",
				res.StatusCode, app+", https://evil.example")
		}
	}
}

// A minted upload URL is storage's: its preflight is 204 for any origin,
// without a key (it was refused "Bearer token required").
func TestUploadURLPreflight(t *testing.T) {
	t.Parallel()
	const app = "http://localhost:5173"
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithAllowedOrigins(app))
	res, body := corsCall(t, srv, "OPTIONS", "/eval-ingest-uploads/0123456789abcdef0123456789abcdef", "", app,
		map[string]string{"Access-Control-Request-Method": "POST"})
	if res.StatusCode != http.StatusNoContent || res.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("preflight on an upload URL: %d %v %s; want storage's 204 for any origin", res.StatusCode, res.Header, body)
	}
}

// WithAllowedOrigins refuses strings no browser sends as an Origin (an
// empty query or fragment, an upper-case scheme or host), which would
// never match and leave the app refused 403.
func TestWithAllowedOriginsNonOrigins(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"http://a.example?", "http://a.example#", "HTTP://localhost:5173", "http://LOCALHOST:5173"} {
		if _, err := projectopstest.NewServer(projectopstest.WithAllowedOrigins(bad)); err == nil {
			t.Errorf("WithAllowedOrigins(%q) accepted: a browser's Origin never equals it", bad)
		}
	}
}
