package relay

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// unstarted serves one relay session whose Run waits for start, and dials
// it; the session comes back before it has said hello.
func unstarted(t *testing.T) (*Session, *websocket.Conn, chan<- struct{}) {
	t.Helper()
	got, start := make(chan *Session, 1), make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		conn.SetReadLimit(tunnelwire.MaxMessage)
		s := New(conn, nil, nil, "slug1")
		got <- s
		<-start
		s.Run(context.Background())
	}))
	t.Cleanup(hs.Close)
	conn, _, err := websocket.Dial(t.Context(), "ws"+strings.TrimPrefix(hs.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	conn.SetReadLimit(tunnelwire.MaxMessage)
	t.Cleanup(func() { _ = conn.CloseNow() })
	return <-got, conn, start
}

// A request handed to a session before its hello is sent (the tunnel's
// newest session, published as it connects) waits for it: the host's
// first message is always the hello, then the req.
func TestRequestBeforeHelloWaitsForIt(t *testing.T) {
	s, conn, start := unstarted(t)
	rec := httptest.NewRecorder()
	done := make(chan error, 1)
	go func() {
		r := httptest.NewRequest(http.MethodGet, "/x", nil)
		done <- s.Forward(rec, r, "/x", http.Header{}, nil)
	}()
	time.Sleep(20 * time.Millisecond) // the request is waiting, or about to
	close(start)
	var got []string
	for range 2 {
		_, msg, err := conn.Read(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		c, err := tunnelwire.DecodeControl(msg)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c.T)
		if c.T == tunnelwire.Req {
			_ = conn.Write(t.Context(), websocket.MessageText, []byte(`{"t":"res","id":1,"status":204,"headers":[]}`))
			_ = conn.Write(t.Context(), websocket.MessageText, []byte(`{"t":"res_end","id":1}`))
		}
	}
	if got[0] != tunnelwire.Hello || got[1] != tunnelwire.Req {
		t.Errorf("the host got %v, want hello then req", got)
	}
	if err := <-done; err != nil || rec.Code != http.StatusNoContent {
		t.Errorf("Forward: %v, %d; want the host's 204", err, rec.Code)
	}
}

// A request waiting for the hello fails as on a closed session when the
// session ends first, and is given up, with nothing sent, when its caller
// goes away first.
func TestRequestWaitingForHelloEnds(t *testing.T) {
	s, conn, start := unstarted(t)
	defer close(start)
	go func() { // the host reads, and so answers the close handshake
		for {
			if _, _, err := conn.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	ctx, cancel := context.WithCancel(t.Context())
	r := httptest.NewRequestWithContext(ctx, http.MethodGet, "/x", nil)
	done := make(chan error, 1)
	go func() { done <- s.Forward(httptest.NewRecorder(), r, "/x", http.Header{}, nil) }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-done; err != nil {
		t.Errorf("a caller gone while waiting: %v, want nil (nothing to answer)", err)
	}
	s.mu.Lock()
	n := len(s.streams) + int(s.next)
	s.mu.Unlock()
	if n != 0 {
		t.Errorf("a caller gone while waiting opened a stream")
	}

	r = httptest.NewRequest(http.MethodGet, "/x", nil)
	go func() { done <- s.Forward(httptest.NewRecorder(), r, "/x", http.Header{}, nil) }()
	time.Sleep(20 * time.Millisecond)
	s.Close(websocket.StatusGoingAway, "bye")
	var un *UnreachableError
	if err := <-done; !errors.As(err, &un) {
		t.Errorf("the session closed while waiting: %v, want an UnreachableError", err)
	}
}
