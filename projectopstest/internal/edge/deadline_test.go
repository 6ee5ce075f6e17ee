package edge

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// rawPost serves h behind BodyDeadline and sends it, on a connection of
// its own, a POST declaring a body of length bytes of which sent arrive
// with the head; it reports whether the answer closes the connection.
func rawPost(t *testing.T, h http.HandlerFunc, length int, sent string) bool {
	t.Helper()
	ts := httptest.NewServer(BodyDeadline(h, time.Hour))
	t.Cleanup(ts.Close)
	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(time.Minute)) // a guard against a hang, not a check
	_, _ = io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: "+strconv.Itoa(length)+"\r\n\r\n"+sent)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.Close
}

// Any answer written before the body was read to its end says
// "Connection: close" and is sent at once, whether or not the rest of the
// body had already arrived with the head: finding out would mean reading
// it (see the tests below for what such a read broke).
func TestBodyDeadlineClosesAfterUnreadBody(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    http.HandlerFunc
	}{
		{"unread", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
		}},
		{"unread, nothing written", func(http.ResponseWriter, *http.Request) {}},
		{"unread, body written", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.WriteString(w, "{}")
		}},
		{"unread, flushed", func(w http.ResponseWriter, r *http.Request) {
			_ = http.NewResponseController(w).Flush()
		}},
		{"partly read", func(w http.ResponseWriter, r *http.Request) {
			_, _ = r.Body.Read(make([]byte, 1))
			w.WriteHeader(http.StatusBadRequest)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !rawPost(t, tc.h, 2, "{}") {
				t.Errorf("whole body arrived, unread: connection kept, want Connection: close")
			}
			if !rawPost(t, tc.h, 10, "{}") {
				t.Errorf("8 bytes of the body yet to come: connection kept, want Connection: close")
			}
		})
	}
	read := func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.WriteHeader(http.StatusBadRequest)
	}
	if rawPost(t, read, 2, "{}") {
		t.Errorf("body read: Connection: close, want the connection kept")
	}
}

// A full-duplex handler reads the body as it answers (net/http leaves the
// body alone): its answer keeps the connection if the body has ended when
// its header is written, and closes it if not, for the handler may stop
// reading before the end (the relay does, with a read deadline in the
// past), and net/http, unable to drain the rest, would parse it as the
// next request.
func TestBodyDeadlineFullDuplex(t *testing.T) {
	readFirst := func(w http.ResponseWriter, r *http.Request) {
		_ = http.NewResponseController(w).EnableFullDuplex()
		_, _ = io.ReadAll(r.Body)
		_, _ = io.WriteString(w, "{}")
	}
	if rawPost(t, readFirst, 2, "{}") {
		t.Errorf("body read before the answer: Connection: close, want the connection kept")
	}
	answerFirst := func(w http.ResponseWriter, r *http.Request) {
		_ = http.NewResponseController(w).EnableFullDuplex()
		_, _ = io.WriteString(w, "{}")
		_ = http.NewResponseController(w).Flush()
		_, _ = io.ReadAll(r.Body)
	}
	if !rawPost(t, answerFirst, 2, "{}") {
		t.Errorf("answered before the body ended: connection kept, want Connection: close")
	}
}

// The relay's way of stopping (relay.stopPump): a full-duplex handler
// reads one byte, answers, puts the read deadline in the past and
// returns. The rest of its body, a request line and head, must not be
// served as a request of its own.
func TestBodyDeadlineDuplexStopDoesNotSmuggle(t *testing.T) {
	var smuggled atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/smuggled" {
			smuggled.Add(1)
			return
		}
		rc := http.NewResponseController(w)
		_ = rc.EnableFullDuplex()
		var b [1]byte
		_, _ = r.Body.Read(b[:])
		_, _ = io.WriteString(w, "ok")
		_ = rc.Flush()
		_ = rc.SetReadDeadline(time.Now()) // as stopPump does
		_, _ = r.Body.Read(b[:])
	})
	ts := httptest.NewServer(BodyDeadline(h, time.Hour))
	t.Cleanup(ts.Close)
	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Minute)) // a guard against a hang, not a check
	rest := "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
	_, _ = io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: "+strconv.Itoa(1+len(rest))+"\r\n\r\nX")
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.ReadAll(resp.Body)
	if !resp.Close {
		t.Errorf("answer to a body the handler stopped reading keeps the connection")
	}
	_, _ = io.WriteString(c, rest) // may fail: the server has closed
	if resp2, err := http.ReadResponse(br, nil); err == nil {
		t.Errorf("the rest of the body was served as a request: %d", resp2.StatusCode)
	}
	if n := smuggled.Load(); n != 0 {
		t.Errorf("the smuggled request reached the handler %d times", n)
	}
}

// The handler sees its own copy of the request: net/http's post-handler
// logic finds the body it made on the request it holds.
func TestBodyDeadlineLeavesRequestBody(t *testing.T) {
	var outer, inner io.ReadCloser
	h := BodyDeadline(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { inner = r.Body }), time.Hour)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := r.Body
		h.ServeHTTP(w, r)
		outer = r.Body
		if outer != body {
			t.Errorf("the server's request body was replaced with %T", outer)
		}
	}))
	t.Cleanup(ts.Close)
	resp, err := ts.Client().Post(ts.URL, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, ok := inner.(*deadlineBody); !ok {
		t.Errorf("handler's body is %T, want the deadline wrapper", inner)
	}
}

// The tests below guard against reading the body when an answer is
// written before it was read (to keep the connection if the rest had
// already arrived): each thing such a read broke.

// serveRaw serves h behind BodyDeadline on a listener that records its
// connections, and dials it; what the server later reads of the
// connection and when it closes it come on the returned channel.
func serveRaw(t *testing.T, h http.HandlerFunc) (net.Conn, *bufio.Reader, <-chan *recConn) {
	t.Helper()
	ts := httptest.NewUnstartedServer(BodyDeadline(h, time.Hour))
	conns := make(chan *recConn, 1)
	ts.Listener = &recListener{Listener: ts.Listener, conns: conns}
	ts.Start()
	t.Cleanup(ts.Close)
	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(time.Minute)) // a guard against a hang, not a check
	return c, bufio.NewReader(c), conns
}

// recListener hands out recConns.
type recListener struct {
	net.Listener
	conns chan *recConn
}

func (l *recListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	rc := &recConn{Conn: c, closed: make(chan struct{})}
	select {
	case l.conns <- rc:
	default: // only the first is watched
	}
	return rc, nil
}

// recConn records what the server reads and closes closed when the server
// closes it.
type recConn struct {
	net.Conn
	mu     sync.Mutex
	read   []byte
	once   sync.Once
	closed chan struct{}
}

func (c *recConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.mu.Lock()
	c.read = append(c.read, p[:n]...)
	c.mu.Unlock()
	return n, err
}

func (c *recConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return c.Conn.Close()
}

func (c *recConn) bytesRead() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.read)
}

var unauthorized = func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusUnauthorized) }

// net/http grants 100 Continue on a body's first read also when Expect
// lists 100-continue among other values: an answer that does not read the
// body comes first, with no 100 Continue before it.
func TestBodyDeadlineExpectListNotGranted(t *testing.T) {
	c, br, _ := serveRaw(t, unauthorized)
	_, _ = io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue, x\r\nContent-Length: 10\r\n\r\n")
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("first answer %d, want the 401 (no 100 Continue for a body nobody reads)", resp.StatusCode)
	}
}

// After an early answer to a body still on its way, net/http reads up to
// 256 KiB of the rest (within the body deadline) before it closes, so a
// client still sending is not reset before it reads the answer. A failed
// read of a chunked body stays failed in net/http's chunked reader, which
// then closed the connection at once, leaving the rest unread.
func TestBodyDeadlineDrainsAfterEarlyAnswer(t *testing.T) {
	for _, tc := range []struct{ name, framing, first, rest string }{
		{"content-length", "Content-Length: 7\r\n", "{}", "abcde"},
		{"chunked", "Transfer-Encoding: chunked\r\n", "2\r\n{}\r\n", "3\r\nabc\r\n0\r\n\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, br, conns := serveRaw(t, unauthorized)
			_, _ = io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\n"+tc.framing+"\r\n"+tc.first)
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusUnauthorized || !resp.Close {
				t.Fatalf("got %d, Connection: close %v; want 401 closing the connection", resp.StatusCode, resp.Close)
			}
			_, _ = io.WriteString(c, tc.rest) // may fail if the server has closed
			sc := <-conns
			select {
			case <-sc.closed:
			case <-time.After(time.Minute): // a guard against a hang, not a check
				t.Fatal("the server never closed the connection")
			}
			if got := sc.bytesRead(); !strings.HasSuffix(got, tc.first+tc.rest) {
				t.Errorf("the server closed having read %q: the rest of the body was not drained", got)
			}
		})
	}
}

// An answer that ignores a body still on its way, and streams, keeps its
// request's context: nothing reads the connection then, so no failed read
// cancels it.
func TestBodyDeadlineEarlyAnswerKeepsContext(t *testing.T) {
	errc := make(chan error, 1)
	c, br, _ := serveRaw(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "data: 1\n\n")
		_ = http.NewResponseController(w).Flush()
		errc <- context.Cause(r.Context())
	})
	_, _ = io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{}")
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if err := <-errc; err != nil {
		t.Errorf("the stream's context ended as it began: %v", err)
	}
}

// A handler may set its status before it reads its body (net/http allows
// it while nothing is flushed): all of the body is there for it to read.
func TestBodyDeadlineHeaderThenRead(t *testing.T) {
	got := make(chan string, 1)
	c, br, _ := serveRaw(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusAccepted)
		b, err := io.ReadAll(r.Body)
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		got <- string(b)
	})
	_, _ = io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\n\r\nabc")
	_, _ = io.WriteString(c, "def")
	if _, err := http.ReadResponse(br, nil); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "abcdef" {
		t.Errorf("handler read %q, want abcdef", s)
	}
}
