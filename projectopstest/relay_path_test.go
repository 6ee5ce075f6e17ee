package projectopstest_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// relayPath sends a GET to the tunnel's public URL with extra written
// raw after its path and returns the url the agent gets, as bytes; a
// response before anything is relayed fails the test.
func relayPath(t *testing.T, f *relayFixture, a *agent, extra string) string {
	t.Helper()
	u := *f.publicU
	u.Opaque = u.EscapedPath() + extra // the request line as written, raw bytes and all
	req, _ := http.NewRequestWithContext(t.Context(), "GET", f.publicU.String(), nil)
	req.URL = &u
	respc := f.do(req)
	var m edgeMsg
	select {
	case m = <-a.in:
	case resp := <-respc:
		t.Fatalf("%q: %d %s without relaying", extra, resp.StatusCode, resp.Status)
	}
	a.sendText(`{"t":"res","id":%d,"status":204,"headers":[]}`, m.ID)
	a.sendText(`{"t":"res_end","id":%d}`, m.ID)
	recvResp(t, respc)
	b, ok := latin1(m.URL)
	if !ok {
		t.Fatalf("url %q reaches the agent with a character above U+00FF", m.URL)
	}
	return string(b)
}

// The service's edge relays req.url, the request target as the caller
// wrote it. The double's once took the escaped path of r.URL, which,
// when the path holds a byte it does not keep (a raw UTF-8 "é"), is the
// decoded path escaped afresh: the caller's a%2Fb (one segment) reached
// the host as a/b (two).
func TestRelayPathKeepsCallersEscapes(t *testing.T) {
	t.Parallel()
	for _, extra := range []string{"/a%2Fb/c\xc3\xa9", "/a%2Fb/c%C3%A9", "/%7Bx%7D/{x}|"} {
		f := newRelayFixture(t, true)
		a := f.dial(t)
		scope := strings.TrimPrefix(f.publicU.EscapedPath(), "/tunnels/"+a.hello.Slug)
		got := relayPath(t, f, a, extra)
		p, q, _ := strings.Cut(got, "?")
		if p != scope+extra || q != f.publicU.RawQuery { // the query holds the secret: not shown
			t.Errorf("the agent got the path %q (the query as sent: %v), want %q", p, q == f.publicU.RawQuery, scope+extra)
		}
	}
}

// A path whose decoded form is not UTF-8 (a raw Latin-1 "é", byte e9, or
// its escape %E9) is refused 400 "Invalid request path" by the double's
// admission of every request, before anything is relayed, where the
// service's edge would relay it (docs/double.md says so).
func TestRelayPathNotUTF8IsRefused(t *testing.T) {
	t.Parallel()
	for _, extra := range []string{"/caf\xe9", "/caf%E9"} {
		f := newRelayFixture(t, true)
		a := f.dial(t)
		u := *f.publicU
		u.Opaque = u.EscapedPath() + extra
		req, _ := http.NewRequestWithContext(t.Context(), "GET", f.publicU.String(), nil)
		req.URL = &u
		resp, body := recvResp(t, f.do(req))
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "Invalid request path") {
			t.Errorf("%q: %d %s, want 400 Invalid request path", extra, resp.StatusCode, body)
		}
		select {
		case m := <-a.in:
			t.Errorf("%q: the agent got %+v", extra, m)
		default:
		}
	}
}

// The request log and the debug log show a tunnel path decoded, as the
// router reads it, whatever the target held: never the secret (it is in
// the query), and the debug log never a raw control byte.
func TestRelayPathLogged(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	f := newRelayFixture(t, true, projectopstest.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	a := f.dial(t)
	relayPath(t, f, a, "/a%2Fb/c\xc3\xa9")
	for _, extra := range []string{"/a%0Ab", "/a%00b\xe9"} { // refused: see TestRelayPathNotUTF8IsRefused
		u := *f.publicU
		u.Opaque = u.EscapedPath() + extra
		req, _ := http.NewRequestWithContext(t.Context(), "GET", f.publicU.String(), nil)
		req.URL = &u
		recvResp(t, f.do(req))
	}
	secret := f.publicU.Query().Get("k")
	out := logs.String()
	for line := range strings.Lines(out) {
		if !strings.HasPrefix(line, "time=") || strings.ContainsFunc(strings.TrimSuffix(line, "\n"), func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Errorf("log line %q: a raw control byte", line)
		}
	}
	if secret == "" || strings.Contains(out, secret) || strings.Contains(fmt.Sprint(f.srv.Requests()), secret) {
		t.Error("a log shows the tunnel secret")
	}
	var paths []string
	for _, r := range f.srv.Requests() {
		paths = append(paths, r.Path)
	}
	if !slices.ContainsFunc(paths, func(p string) bool { return strings.HasSuffix(p, "/a/b/c\u00e9") }) {
		t.Errorf("request log paths %q, want the relayed one decoded", paths)
	}
}
