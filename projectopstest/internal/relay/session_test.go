package relay

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// pair serves one relay session and dials it as a host that answers every
// request with status and the request's body, upper-cased.
func pair(t *testing.T, status int) *Session {
	t.Helper()
	return pairAnswering(t, func(id uint32, body []byte) [][]byte {
		head, _ := tunnelwire.EncodeHead(tunnelwire.Response, id, &tunnelwire.Head{Status: status, Header: http.Header{"X-Relay": {"yes"}}})
		return [][]byte{head, tunnelwire.Encode(tunnelwire.Data, id, []byte(strings.ToUpper(string(body)))), tunnelwire.EncodeEnd(id, nil)}
	})
}

// pairAnswering is pair with a host that answers each request with the
// messages answer returns.
func pairAnswering(t *testing.T, answer func(id uint32, body []byte) [][]byte) *Session {
	t.Helper()
	got := make(chan *Session, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		s := New(conn, nil, false, false)
		got <- s
		s.Run(context.Background())
	}))
	t.Cleanup(hs.Close)
	host, _, err := websocket.Dial(t.Context(), "ws"+strings.TrimPrefix(hs.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = host.CloseNow() })
	if _, msg, err := host.Read(t.Context()); err != nil {
		t.Fatal(err)
	} else if f, err := tunnelwire.Decode(msg); err != nil || f.Kind != tunnelwire.Ready {
		t.Fatalf("first frame %v %v", f.Kind, err)
	}
	go func() {
		bodies := map[uint32][]byte{}
		for {
			_, msg, err := host.Read(context.Background())
			if err != nil {
				return
			}
			f, err := tunnelwire.Decode(msg)
			if err != nil {
				return
			}
			switch f.Kind {
			case tunnelwire.Data:
				bodies[f.ID] = append(bodies[f.ID], f.Payload...)
			case tunnelwire.End:
				for _, out := range answer(f.ID, bodies[f.ID]) {
					if host.Write(context.Background(), websocket.MessageBinary, out) != nil {
						return
					}
				}
			}
		}
	}()
	return <-got
}

func TestForward(t *testing.T) {
	s := pair(t, 200)
	rec := httptest.NewRecorder()
	req := httptest.NewRequestWithContext(t.Context(), "POST", "/mcp", nil)
	if err := s.Forward(rec, req, &tunnelwire.Head{Method: "POST", URI: "/mcp"}, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if rec.Code != 200 || rec.Body.String() != "HELLO" || rec.Header().Get("X-Relay") != "yes" {
		t.Errorf("relayed %d %q %v", rec.Code, rec.Body.String(), rec.Header())
	}
	// A closed session answers nothing: the caller is told to report it.
	s.Close(tunnelwire.CloseRevoked, "tunnel revoked")
	err := s.Forward(httptest.NewRecorder(), req, &tunnelwire.Head{Method: "POST", URI: "/mcp"}, nil)
	var un *UnreachableError
	if !errors.As(err, &un) {
		t.Errorf("after Close: %v, want *UnreachableError", err)
	}
}

// A head whose status net/http cannot write (none, 1xx, four digits) is a
// failed request, not a panic in the public handler.
func TestForwardInvalidStatus(t *testing.T) {
	for _, status := range []int{0, 101, 1000} {
		s := pair(t, status)
		req := httptest.NewRequestWithContext(t.Context(), "POST", "/mcp", nil)
		err := s.Forward(httptest.NewRecorder(), req, &tunnelwire.Head{Method: "POST", URI: "/mcp"}, []byte("x"))
		var un *UnreachableError
		if !errors.As(err, &un) {
			t.Errorf("status %d: %v, want *UnreachableError", status, err)
		}
	}
}

// A response is its head, then its body: a host that ends a stream without
// a head failed the request, and body bytes before the head are no
// response and are dropped.
func TestForwardOutOfOrder(t *testing.T) {
	req := httptest.NewRequestWithContext(t.Context(), "POST", "/mcp", nil)
	s := pairAnswering(t, func(id uint32, _ []byte) [][]byte {
		return [][]byte{tunnelwire.EncodeEnd(id, nil)}
	})
	var un *UnreachableError
	if err := s.Forward(httptest.NewRecorder(), req, &tunnelwire.Head{Method: "POST", URI: "/mcp"}, nil); !errors.As(err, &un) {
		t.Errorf("end without a head: %v, want *UnreachableError", err)
	}
	s = pairAnswering(t, func(id uint32, _ []byte) [][]byte {
		head, _ := tunnelwire.EncodeHead(tunnelwire.Response, id, &tunnelwire.Head{Status: 201})
		return [][]byte{tunnelwire.Encode(tunnelwire.Data, id, []byte("early ")), head,
			tunnelwire.Encode(tunnelwire.Data, id, []byte("body")), tunnelwire.EncodeEnd(id, nil)}
	})
	rec := httptest.NewRecorder()
	if err := s.Forward(rec, req, &tunnelwire.Head{Method: "POST", URI: "/mcp"}, nil); err != nil {
		t.Fatal(err)
	}
	if rec.Code != 201 || rec.Body.String() != "body" {
		t.Errorf("data before the head: %d %q, want 201 %q", rec.Code, rec.Body.String(), "body")
	}
}
