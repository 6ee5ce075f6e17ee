package projectopstest_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

// Any answer given before the request's body has been read (a 401, the
// declared 1 MiB cap, a success that ignores the body) is written at once,
// as the service's Node server writes it, and closes the connection; it
// does not wait for a body the route never reads. The double's body
// timeout is an hour in these tests, so an answer that waited for the body
// would not come within guard.

// unreadConn is a loopback connection to a double whose body timeout is
// far longer than guard, with its reader and /api/v1 prefix.
type unreadConn struct {
	c      net.Conn
	br     *bufio.Reader
	prefix string
	ws     projectopstest.Workspace
}

func dialUnread(t *testing.T) *unreadConn {
	t.Helper()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithConnTimeouts(time.Hour, time.Hour))
	c, prefix := dialRaw(t, srv)
	return &unreadConn{c: c, br: bufio.NewReader(c), prefix: prefix, ws: srv.Default()}
}

// send writes s with "{p}" replaced by the project's path prefix.
func (u *unreadConn) send(t *testing.T, s string) {
	t.Helper()
	s = strings.ReplaceAll(s, "{p}", u.prefix+"/projects/"+u.ws.ProjectID)
	if _, err := io.WriteString(u.c, s); err != nil {
		t.Fatal(err)
	}
}

// read returns the next response (interim ones included) and its body.
func (u *unreadConn) read(t *testing.T) (*http.Response, string) {
	t.Helper()
	resp, err := http.ReadResponse(u.br, nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

// wantClose checks that resp announces the connection's end: what is
// left of the body is not to be read as the next request. (The double
// still reads up to 256 KiB of it, within its body timeout, so that a
// client still sending it is not reset before it reads the answer.)
func wantClose(t *testing.T, resp *http.Response) {
	t.Helper()
	if !resp.Close {
		t.Errorf("answer before the body: Connection %q, want close", resp.Header.Get("Connection"))
	}
}

// A request refused before its body is read is answered at once with the
// refusal: with Expect, no 100 Continue asks for a body that would not be
// read; without it, the answer does not wait for a body only partly sent.
func TestUnauthenticatedAnsweredBeforeBody(t *testing.T) {
	t.Parallel()
	for name, rest := range map[string]string{
		"expect":  "Expect: 100-continue\r\nContent-Length: 2\r\n\r\n",
		"partial": "Content-Length: 40\r\n\r\n{",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			u := dialUnread(t)
			u.send(t, "POST {p}/hosts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+rest)
			resp, body := u.read(t)
			if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, `"UNAUTHORIZED"`) {
				t.Fatalf("got %d %s, want 401 UNAUTHORIZED", resp.StatusCode, body)
			}
			wantClose(t, resp)
		})
	}
}

func TestDeclaredOverLimitAnsweredBeforeBody(t *testing.T) {
	t.Parallel()
	for name, expect := range map[string]string{"plain": "", "expect": "Expect: 100-continue\r\n"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			u := dialUnread(t)
			u.send(t, "POST {p}/hosts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+
				"Authorization: Bearer "+u.ws.APIKey+"\r\n"+expect+"Content-Length: 2000000\r\n\r\n{\"a\":\"")
			resp, body := u.read(t)
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "exceeds 1MB") {
				t.Fatalf("got %d %s, want 400 VALIDATION_ERROR (body exceeds 1MB)", resp.StatusCode, body)
			}
			wantClose(t, resp)
			// Past 256 KiB left, net/http does not read on: it closes.
			if _, err := u.br.ReadByte(); err != io.EOF {
				t.Errorf("after the answer: read %v, want the connection closed (EOF)", err)
			}
		})
	}
}

// A route that reads the body keeps the connection: with Expect it is
// granted 100 Continue, and its answer (here a validation error, the body
// read) leaves the connection open for the next request.
func TestBodyReadKeepsConnection(t *testing.T) {
	t.Parallel()
	u := dialUnread(t)
	head := "POST {p}/hosts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
		"Authorization: Bearer " + u.ws.APIKey + "\r\n"
	u.send(t, head+"Expect: 100-continue\r\nContent-Length: 2\r\n\r\n")
	if resp, _ := u.read(t); resp.StatusCode != http.StatusContinue {
		t.Fatalf("got %d, want 100 Continue for a body the route reads", resp.StatusCode)
	}
	u.send(t, "{}")
	for i := range 2 {
		resp, body := u.read(t)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, `"VALIDATION_ERROR"`) {
			t.Fatalf("request %d: got %d %s, want 400 VALIDATION_ERROR", i, resp.StatusCode, body)
		}
		if resp.Close {
			t.Fatalf("request %d: the body was read, yet the answer closes the connection", i)
		}
		if i == 0 {
			u.send(t, head+"Content-Length: 2\r\n\r\n{}") // the same connection, reused
		}
	}
}

// A route that ignores its body (a GET sent with one), or a refusal given
// before the body is read, closes the connection even when the whole body
// has already arrived with the head: the double does not read it to find
// out (the service's Node server would discard it and keep the
// connection).
func TestArrivedUnreadBodyClosesConnection(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, req string
		status    int
	}{
		{"ignored by a GET", "GET {p}/hosts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\nContent-Length: 2\r\n\r\n{}", http.StatusOK},
		{"refused", "POST {p}/hosts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}", http.StatusUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			u := dialUnread(t)
			u.send(t, strings.ReplaceAll(tc.req, "{key}", u.ws.APIKey))
			resp, body := u.read(t)
			if resp.StatusCode != tc.status {
				t.Fatalf("got %d %s, want %d", resp.StatusCode, body, tc.status)
			}
			if !resp.Close {
				t.Fatalf("answer before the body was read: Connection %q, want close", resp.Header.Get("Connection"))
			}
			if _, err := u.br.ReadByte(); err != io.EOF {
				t.Errorf("after the answer: read %v, want the connection closed (EOF)", err)
			}
		})
	}
}
