package projectopstest_test

import (
	"bufio"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// TestHeadOverCapAnswers431 holds the listener to what docs/double.md says
// of a head over MaxHeaderBytes: 431 with no body from the double; over
// net/http's own limit (64 KiB plus 4 KiB), net/http's 431 with its text
// body, which the double cannot reword. Either way the connection closes,
// and the answer carries none of the app's security headers (Node answers
// it before the service's app runs).
func TestHeadOverCapAnswers431(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	for _, c := range []struct {
		size int
		body string
	}{{17 << 10, ""}, {70 << 10, "431 Request Header Fields Too Large"}} {
		conn, prefix := dialRaw(t, srv)
		go func() { // the server may answer before it has read all of it
			_, _ = io.WriteString(conn, "GET "+prefix+"/me HTTP/1.1\r\nHost: x\r\nX-Big: "+strings.Repeat("a", c.size)+"\r\n\r\n")
		}()
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("head of %d bytes: %v", c.size, err)
		}
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge || string(b) != c.body {
			t.Errorf("head of %d bytes: %d, body %q, %v; want 431, body %q", c.size, resp.StatusCode, b, err, c.body)
		}
		if v := resp.Header.Get("X-Content-Type-Options"); v != "" {
			t.Errorf("head of %d bytes: X-Content-Type-Options %q; want none, as before the app", c.size, v)
		}
		if _, err := br.ReadByte(); err == nil {
			t.Errorf("head of %d bytes: the connection stays open", c.size)
		}
	}
}

// TestHeadCapCountsTheTargetAsSent: a target whose dot segments resolve
// to a short path still counts at its length as sent, as Node counts the
// head before the URL is resolved: 431, not the resolved route's answer.
func TestHeadCapCountsTheTargetAsSent(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	conn, prefix := dialRaw(t, srv)
	target := prefix + strings.Repeat("/x/..", projectopstest.MaxHeaderBytes/5+1) + "/me"
	go func() { _, _ = io.WriteString(conn, "GET "+target+" HTTP/1.1\r\nHost: x\r\n\r\n") }()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("a %d-byte target resolving to %s/me: %d; want 431", len(target), prefix, resp.StatusCode)
	}
}

// TestHeadOverCapLogged: the double's own 431 (a head over
// MaxHeaderBytes) is in the request log and the debug log like any other
// refused request, with no request id (none is answered) and none of its
// headers' values; a target that made the head too large is logged cut
// short, so the log stays bounded.
func TestHeadOverCapLogged(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithLogger(
		slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	ws := srv.Default()
	secret := "hush-" + strings.Repeat("s", projectopstest.MaxHeaderBytes)
	longPath := "/me/" + strings.Repeat("p", projectopstest.MaxHeaderBytes)
	for _, c := range []struct{ path, header string }{{"/me", secret}, {longPath, ""}} {
		req, err := http.NewRequestWithContext(t.Context(), "GET", projectopstest.InProcessURL+c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+ws.APIKey)
		if c.header != "" {
			req.Header.Set("X-Pad", c.header)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge || resp.Header.Get("X-Request-Id") != "" {
			t.Fatalf("%d-byte path: %d, X-Request-Id %q; want 431 and none", len(c.path), resp.StatusCode, resp.Header.Get("X-Request-Id"))
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("request log holds %d requests, want the two 431s: %+v", len(reqs), reqs)
	}
	for i, r := range reqs {
		if r.Status != http.StatusRequestHeaderFieldsTooLarge || r.Method != "GET" || r.RequestID != "" || r.KeyID != "" || r.Route != "" {
			t.Errorf("logged 431 #%d: %+v", i, r)
		}
	}
	if got := reqs[0].Path; got != "/api/v1/me" {
		t.Errorf("logged path %q", got)
	}
	if got := reqs[1].Path; len(got) > 300 || !strings.HasSuffix(got, "p…") {
		t.Errorf("logged a %d-byte path for a %d-byte target: want it cut short", len(got), len(longPath))
	}
	if out := logs.String(); strings.Count(out, "status=431") != 2 || strings.Contains(out, "hush-") {
		t.Errorf("debug log: want two 431 lines without the header's value:\n%.2000s", out)
	}
}
