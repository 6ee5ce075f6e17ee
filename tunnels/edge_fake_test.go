package tunnels_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
	"github.com/projectops/projectops-go/tunnels"
)

// fakeEdge is a relay edge of the test's own that speaks mcpjam-tunnel.v1
// as the service's edge does, message by message, so a test can drive a
// host with exactly what the hosted edge sends.
type fakeEdge struct {
	srv    *httptest.Server
	conns  chan *edgeConn
	limits tunnelwire.Limits
	close  websocket.StatusCode // when set, every session is closed with it right after hello
	done   chan struct{}        // closed when the test ends: a hijacked request's context never is
	dials  atomic.Int32         // WebSocket sessions accepted
}

// edgeConn is one host session as the fake edge sees it.
type edgeConn struct {
	t    *testing.T
	c    *websocket.Conn
	r    *tunnelwire.Reader
	auth string
}

func newFakeEdge(t *testing.T, limits tunnelwire.Limits) *fakeEdge {
	t.Helper()
	e := &fakeEdge{conns: make(chan *edgeConn, 16), limits: limits, done: make(chan struct{})}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{tunnelwire.Subprotocol}})
		if err != nil {
			return
		}
		defer c.CloseNow()
		// A test that waits for a message that never comes fails after
		// 30 s (its read ends with the connection) instead of hanging.
		guard := time.AfterFunc(30*time.Second, func() { _ = c.CloseNow() })
		defer guard.Stop()
		e.dials.Add(1)
		c.SetReadLimit(tunnelwire.MaxMessage)
		if c.Write(r.Context(), websocket.MessageText, tunnelwire.AppendHello(nil, "slug0001", e.limits)) != nil {
			return
		}
		if e.close != 0 {
			_ = c.Close(e.close, "closed by the fake edge")
			return
		}
		ec := &edgeConn{t: t, c: c, r: tunnelwire.NewReader(c), auth: r.Header.Get("Authorization")}
		e.conns <- ec
		<-e.done // the test reads and writes on ec until it ends
	}))
	t.Cleanup(e.srv.Close)
	t.Cleanup(func() { close(e.done) }) // before Close, which waits for the handlers
	return e
}

// grant is a grant for server srv_1 on the fake edge.
func (e *fakeEdge) grant() *tunnels.Grant {
	return &tunnels.Grant{ServerID: "srv_1", RelayWSURL: "ws" + strings.TrimPrefix(e.srv.URL, "http"), ConnectToken: "ct_x"}
}

// next waits for the next host session.
func (e *fakeEdge) next(t *testing.T) *edgeConn {
	t.Helper()
	select {
	case c := <-e.conns:
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("no host connected to the fake edge")
		return nil
	}
}

// serveOn runs Serve with h against the edge until the test ends; opts
// add to WithHTTPClient(http.DefaultClient).
func serveOn(t *testing.T, f *fixture, g *tunnels.Grant, h http.Handler, opts ...tunnels.ServeOption) <-chan error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	opts = append([]tunnels.ServeOption{tunnels.WithHTTPClient(http.DefaultClient)}, opts...)
	go func() { done <- f.C.Tunnels.Serve(ctx, g, h, opts...) }()
	out := make(chan error, 1)
	t.Cleanup(func() {
		cancel()
		out <- <-done
	})
	return out
}

// send writes messages as the edge would: text for control, binary for
// chunks (a message starting with '{' is control).
func (c *edgeConn) send(msgs ...[]byte) {
	c.t.Helper()
	for _, m := range msgs {
		typ := websocket.MessageBinary
		if len(m) > 0 && m[0] == '{' {
			typ = websocket.MessageText
		}
		if err := c.c.Write(context.Background(), typ, m); err != nil {
			c.t.Fatalf("edge write: %v", err)
		}
	}
}

// req sends a request as the edge relays one: req, then (body != nil) its
// chunks and req_end.
func (c *edgeConn) req(id uint32, method, url string, h http.Header, body []byte) {
	c.t.Helper()
	c.send(tunnelwire.AppendReq(nil, id, method, url, h, body != nil, true))
	if body == nil {
		return
	}
	for chunk := range slices.Chunk(body, 64<<10) {
		c.send(tunnelwire.AppendChunk(nil, tunnelwire.ReqChunk, id, chunk))
	}
	c.send(tunnelwire.AppendEnd(nil, tunnelwire.ReqEnd, id))
}

// reply is what the host sent back for a stream.
type reply struct {
	status int
	header http.Header
	body   string
	abort  string // the abort's code, when the stream ended with one
}

// response reads the host's messages until stream id ends (res_end or
// abort); other streams' messages are dropped.
func (c *edgeConn) response(id uint32) reply {
	c.t.Helper()
	var r reply
	var body strings.Builder
	for {
		typ, msg, err := c.r.Read()
		if err != nil {
			c.t.Fatalf("edge read: %v", err)
		}
		if typ == websocket.MessageBinary {
			ch, err := tunnelwire.DecodeChunk(msg)
			if err != nil || ch.Kind != tunnelwire.ResChunk {
				c.t.Fatalf("binary message %q: %v", msg, err)
			}
			if ch.ID == id {
				body.Write(ch.Payload)
			}
			continue
		}
		m, err := tunnelwire.DecodeControl(msg)
		if err != nil {
			c.t.Fatalf("control message %s: %v", msg, err)
		}
		if m.ID != id {
			continue
		}
		switch m.T {
		case tunnelwire.Res:
			r.status, r.header = m.Status, m.Header
		case tunnelwire.ResEnd:
			r.body = body.String()
			return r
		case tunnelwire.Abort:
			r.body, r.abort = body.String(), m.Code
			return r
		}
	}
}

// control reads the host's messages until a control message and returns
// it decoded; chunks are dropped.
func (c *edgeConn) control() tunnelwire.Control {
	c.t.Helper()
	for {
		typ, msg, err := c.r.Read()
		if err != nil {
			c.t.Fatalf("edge read: %v", err)
		}
		if typ != websocket.MessageText {
			continue
		}
		m, err := tunnelwire.DecodeControl(msg)
		if err != nil {
			c.t.Fatalf("control message %s: %v", msg, err)
		}
		return m
	}
}

// relayOnce serves h on a fresh fake edge and relays one request to it.
func relayOnce(t *testing.T, f *fixture, h http.Handler, method, url string, hdr http.Header, body []byte) reply {
	t.Helper()
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	serveOn(t, f, e.grant(), h)
	c := e.next(t)
	c.req(1, method, url, hdr, body)
	return c.response(1)
}
