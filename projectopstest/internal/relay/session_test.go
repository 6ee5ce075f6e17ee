package relay

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// message is one message the edge sent to the fake host.
type message struct {
	c     *tunnelwire.Control // a text message
	chunk tunnelwire.Chunk    // a binary one (c nil), its payload copied
}

// fakeHost is the host end of a session, driven by the test.
type fakeHost struct {
	t    *testing.T
	conn *websocket.Conn
	in   chan message
	err  error // why the host's reads ended, once in is closed
}

// pair serves one relay session and dials it as a fake host, which has
// read the hello.
func pair(t *testing.T) (*Session, *fakeHost) {
	t.Helper()
	s, conn, start := unstarted(t)
	close(start)
	typ, msg, err := conn.Read(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if c, err := tunnelwire.DecodeControl(msg); typ != websocket.MessageText || err != nil || c.T != tunnelwire.Hello ||
		c.Proto != 1 || c.Slug != "slug1" || c.Limits != tunnelwire.DefaultLimits {
		t.Fatalf("first message %s (%v), want the hello", msg, err)
	}
	h := &fakeHost{t: t, conn: conn, in: make(chan message, 1024)}
	go func() {
		defer close(h.in)
		for {
			typ, msg, err := conn.Read(context.Background())
			if err != nil {
				h.err = err
				return
			}
			var m message
			if typ == websocket.MessageText {
				c, err := tunnelwire.DecodeControl(msg)
				if err != nil {
					t.Errorf("edge sent %q: %v", msg, err)
					return
				}
				m.c = &c
			} else if m.chunk, err = tunnelwire.DecodeChunk(msg); err != nil {
				t.Errorf("edge sent a binary message of %d bytes", len(msg))
				return
			}
			h.in <- m
		}
	}()
	return s, h
}

// next returns the next message the edge sent, waiting up to 5 s.
func (h *fakeHost) next() message {
	h.t.Helper()
	select {
	case m, ok := <-h.in:
		if !ok {
			h.t.Fatal("the session ended")
		}
		return m
	case <-time.After(5 * time.Second):
		h.t.Fatal("no message from the edge")
	}
	return message{}
}

// control returns the next message, which must be a text one of type typ.
func (h *fakeHost) control(typ string) *tunnelwire.Control {
	h.t.Helper()
	m := h.next()
	if m.c == nil || m.c.T != typ {
		h.t.Fatalf("got %+v, want a %s message", m, typ)
	}
	return m.c
}

// request reads a request the edge sent: its req and, when it has one,
// its body up to req_end.
func (h *fakeHost) request() (*tunnelwire.Control, []byte) {
	h.t.Helper()
	req := h.control(tunnelwire.Req)
	var body []byte
	for req.HasBody {
		m := h.next()
		if m.c != nil {
			if m.c.T != tunnelwire.ReqEnd || m.c.ID != req.ID {
				h.t.Fatalf("got %+v in the body of stream %d", m.c, req.ID)
			}
			break
		}
		if m.chunk.Kind != tunnelwire.ReqChunk || m.chunk.ID != req.ID || len(m.chunk.Payload) > tunnelwire.DefaultLimits.Chunk {
			h.t.Fatalf("chunk kind %d id %d of %d bytes in the body of stream %d", m.chunk.Kind, m.chunk.ID, len(m.chunk.Payload), req.ID)
		}
		body = append(body, m.chunk.Payload...)
	}
	return req, body
}

// send writes text messages (strings) and binary ones (byte slices).
func (h *fakeHost) send(msgs ...any) {
	h.t.Helper()
	for _, m := range msgs {
		var err error
		switch m := m.(type) {
		case string:
			err = h.conn.Write(context.Background(), websocket.MessageText, []byte(m))
		case []byte:
			err = h.conn.Write(context.Background(), websocket.MessageBinary, m)
		}
		if err != nil {
			h.t.Fatal(err)
		}
	}
}

// answer sends a whole response for stream id.
func (h *fakeHost) answer(id uint32, status int, header http.Header, body string) {
	h.send(string(tunnelwire.AppendRes(nil, id, status, header)),
		tunnelwire.AppendChunk(nil, tunnelwire.ResChunk, id, []byte(body)),
		string(tunnelwire.AppendEnd(nil, tunnelwire.ResEnd, id)))
}

// forward runs Forward on its own goroutine and returns its outcome.
func forward(s *Session, r *http.Request) (*httptest.ResponseRecorder, <-chan error) {
	rec := httptest.NewRecorder()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- errors.New("cut short")
			}
		}()
		done <- s.Forward(rec, r, r.URL.RequestURI(), r.Header, nil)
	}()
	return rec, done
}

func wait(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("Forward did not return")
	}
	return nil
}

func TestForward(t *testing.T) {
	s, h := pair(t)
	req := httptest.NewRequestWithContext(t.Context(), "POST", "/api/mcp/adapter-http/s1?k=x", strings.NewReader("hello"))
	rec, done := forward(s, req)
	got, body := h.request()
	if got.ID != 1 || got.Method != "POST" || got.URL != "/api/mcp/adapter-http/s1?k=x" || string(body) != "hello" {
		t.Errorf("host got %+v with body %q", got, body)
	}
	h.answer(got.ID, 200, http.Header{"X-Relay": {"yes"}, "Connection": {"close"}}, "HELLO")
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	if rec.Code != 200 || rec.Body.String() != "HELLO" || rec.Header().Get("X-Relay") != "yes" || rec.Header().Get("Connection") != "" {
		t.Errorf("relayed %d %q %v", rec.Code, rec.Body.String(), rec.Header())
	}
	// Stream ids go up; a request without a body is its req alone.
	_, done = forward(s, httptest.NewRequestWithContext(t.Context(), "GET", "/api/mcp/adapter-http/s1", nil))
	if got, _ := h.request(); got.ID != 2 || got.HasBody {
		t.Errorf("second request %+v, want id 2 without a body", got)
	}
	// A closed session answers nothing: the caller is told to report it.
	s.Close(tunnelwire.CloseRevoked, "tunnel revoked")
	var un *UnreachableError
	if err := wait(t, done); !errors.As(err, &un) {
		t.Errorf("request in flight at Close: %v, want *UnreachableError", err)
	}
	if err := s.Forward(httptest.NewRecorder(), req, "/", nil, nil); !errors.As(err, &un) {
		t.Errorf("after Close: %v, want *UnreachableError", err)
	}
}

// A head whose status net/http cannot write (none, 1xx, four digits) is a
// failed request, not a panic in the public handler.
func TestForwardInvalidStatus(t *testing.T) {
	for _, status := range []int{0, 101, 1000} {
		s, h := pair(t)
		_, done := forward(s, httptest.NewRequestWithContext(t.Context(), "GET", "/", nil))
		got, _ := h.request()
		h.answer(got.ID, status, nil, "x")
		var un *UnreachableError
		if err := wait(t, done); !errors.As(err, &un) {
			t.Errorf("status %d: %v, want *UnreachableError", status, err)
		}
	}
}

// A response is its head, then its body: a host that ends a stream without
// a head failed the request, body bytes before the head are dropped, and
// messages for other streams, unknown types and other chunk kinds are
// ignored.
func TestForwardOutOfOrder(t *testing.T) {
	s, h := pair(t)
	_, done := forward(s, httptest.NewRequestWithContext(t.Context(), "GET", "/", nil))
	got, _ := h.request()
	h.send(string(tunnelwire.AppendEnd(nil, tunnelwire.ResEnd, got.ID)))
	var un *UnreachableError
	if err := wait(t, done); !errors.As(err, &un) {
		t.Errorf("end without a head: %v, want *UnreachableError", err)
	}
	rec, done := forward(s, httptest.NewRequestWithContext(t.Context(), "GET", "/", nil))
	got, _ = h.request()
	h.send(tunnelwire.AppendChunk(nil, tunnelwire.ResChunk, got.ID, []byte("early ")),
		`{"t":"later","id":`+strconv.Itoa(int(got.ID))+`}`,
		string(tunnelwire.AppendRes(nil, 99, 500, nil)),
		string(tunnelwire.AppendRes(nil, got.ID, 201, nil)),
		tunnelwire.AppendChunk(nil, tunnelwire.ReqChunk, got.ID, []byte("wrong kind ")),
		tunnelwire.AppendChunk(nil, tunnelwire.ResChunk, got.ID, []byte("body")),
		string(tunnelwire.AppendEnd(nil, tunnelwire.ResEnd, got.ID)))
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	if rec.Code != 201 || rec.Body.String() != "body" {
		t.Errorf("out of order: %d %q, want 201 %q", rec.Code, rec.Body.String(), "body")
	}
}

// An abort from the host fails the request before the head (the caller
// answers 502) and cuts the response after it; a malformed message ends
// the session.
func TestForwardHostAbort(t *testing.T) {
	s, h := pair(t)
	_, done := forward(s, httptest.NewRequestWithContext(t.Context(), "GET", "/", nil))
	got, _ := h.request()
	h.send(string(tunnelwire.AppendAbort(nil, got.ID, tunnelwire.AbortUpstreamError, "refused")))
	var un *UnreachableError
	if err := wait(t, done); !errors.As(err, &un) || un.Msg != "The tunnel host failed the request" {
		t.Errorf("abort before the head: %v", err)
	}
	rec, done := forward(s, httptest.NewRequestWithContext(t.Context(), "GET", "/", nil))
	got, _ = h.request()
	h.send(string(tunnelwire.AppendRes(nil, got.ID, 200, nil)),
		tunnelwire.AppendChunk(nil, tunnelwire.ResChunk, got.ID, []byte("part")),
		string(tunnelwire.AppendAbort(nil, got.ID, tunnelwire.AbortUpstreamError, "")))
	if err := wait(t, done); err == nil || err.Error() != "cut short" || rec.Body.String() != "part" {
		t.Errorf("abort after the head: %v, body %q; want the body so far, then the response cut", err, rec.Body.String())
	}
	h.send("not json")
	for m := range h.in {
		t.Errorf("after a malformed message: %+v", m)
	}
	if st := websocket.CloseStatus(h.err); st != websocket.StatusProtocolError {
		t.Errorf("after a malformed message: %v, want close %d", h.err, websocket.StatusProtocolError)
	}
}

// A body longer than one chunk streams as chunks of at most Chunk bytes,
// and a caller that goes away is reported to the host as client_gone.
func TestForwardStreamsBody(t *testing.T) {
	s, h := pair(t)
	big := bytes.Repeat([]byte("0123456789"), 30_000)
	rec, done := forward(s, httptest.NewRequestWithContext(t.Context(), "POST", "/", bytes.NewReader(big)))
	got, body := h.request()
	if !got.HasBody || !bytes.Equal(body, big) {
		t.Fatalf("host got %d of %d bytes", len(body), len(big))
	}
	h.answer(got.ID, 200, nil, "ok")
	if err := wait(t, done); err != nil || rec.Body.String() != "ok" {
		t.Fatalf("%v %q", err, rec.Body.String())
	}

	ctx, cancel := context.WithCancel(t.Context())
	_, done = forward(s, httptest.NewRequestWithContext(ctx, "GET", "/", nil))
	got, _ = h.request()
	h.send(string(tunnelwire.AppendRes(nil, got.ID, 200, nil)))
	cancel()
	if err := wait(t, done); err != nil {
		t.Errorf("caller gone: %v", err)
	}
	if a := h.control(tunnelwire.Abort); a.ID != got.ID || a.Code != tunnelwire.AbortClientGone {
		t.Errorf("caller gone: host got %+v, want abort client_gone", a)
	}
}

// endless is a body of unknown length that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) { return len(p), nil }

// A body past MaxReqBody is aborted as too_large and refused; a known
// length past it is refused without relaying anything.
func TestForwardBodyTooLarge(t *testing.T) {
	s, h := pair(t)
	req := httptest.NewRequestWithContext(t.Context(), "POST", "/", io.NopCloser(endless{}))
	req.ContentLength = -1
	_, done := forward(s, req)
	got := h.control(tunnelwire.Req)
	n := 0
	for {
		m := h.next()
		if m.c != nil {
			if m.c.T != tunnelwire.Abort || m.c.ID != got.ID || m.c.Code != tunnelwire.AbortTooLarge {
				t.Fatalf("got %+v, want abort too_large", m.c)
			}
			break
		}
		n += len(m.chunk.Payload)
	}
	if n > int(tunnelwire.DefaultLimits.MaxReqBody) {
		t.Errorf("relayed %d bytes, more than MaxReqBody", n)
	}
	if err := wait(t, done); !errors.Is(err, ErrBodyTooLarge) {
		t.Errorf("endless body: %v, want ErrBodyTooLarge", err)
	}
	req = httptest.NewRequestWithContext(t.Context(), "POST", "/", strings.NewReader("x"))
	req.ContentLength = tunnelwire.DefaultLimits.MaxReqBody + 1
	if err := s.Forward(httptest.NewRecorder(), req, "/", nil, nil); !errors.Is(err, ErrBodyTooLarge) {
		t.Errorf("known length past the limit: %v, want ErrBodyTooLarge", err)
	}
	_, done = forward(s, httptest.NewRequestWithContext(t.Context(), "GET", "/next", nil))
	if got := h.control(tunnelwire.Req); got.URL != "/next" {
		t.Errorf("host got %+v, want the next request (nothing of the refused one)", got)
	}
	s.Close(websocket.StatusNormalClosure, "")
	wait(t, done)
}

// More than MaxInflight requests at once: the extra one is refused and
// the host never hears of it.
func TestForwardOverloaded(t *testing.T) {
	s, h := pair(t)
	ctx, cancel := context.WithCancel(t.Context())
	var dones []<-chan error
	for range tunnelwire.DefaultLimits.MaxInflight {
		_, done := forward(s, httptest.NewRequestWithContext(ctx, "GET", "/", nil))
		dones = append(dones, done)
		h.control(tunnelwire.Req)
	}
	if err := s.Forward(httptest.NewRecorder(), httptest.NewRequestWithContext(t.Context(), "GET", "/", nil), "/", nil, nil); !errors.Is(err, ErrOverloaded) {
		t.Errorf("request %d: %v, want ErrOverloaded", tunnelwire.DefaultLimits.MaxInflight+1, err)
	}
	cancel()
	for _, done := range dones {
		wait(t, done)
	}
	for range tunnelwire.DefaultLimits.MaxInflight {
		h.control(tunnelwire.Abort)
	}
	// Room again.
	_, done := forward(s, httptest.NewRequestWithContext(t.Context(), "GET", "/", nil))
	got, _ := h.request()
	h.answer(got.ID, 204, nil, "")
	if err := wait(t, done); err != nil {
		t.Error(err)
	}
}
