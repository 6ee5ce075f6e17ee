package edge

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
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

// An answer written before the body was read keeps the connection when
// the rest of the body had already arrived with the head (it is dropped,
// as the service's Node server drops it), and closes it, answering at
// once, when it had not.
func TestBodyDeadlineClosesOnlyAfterUnarrivedBody(t *testing.T) {
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
			if rawPost(t, tc.h, 2, "{}") {
				t.Errorf("the whole body had arrived: Connection: close, want the connection kept")
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
