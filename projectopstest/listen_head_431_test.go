package projectopstest_test

import (
	"bufio"
	"io"
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
