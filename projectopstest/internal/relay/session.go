// Package relay is the double's relay edge of a tunnel: the host's live
// WebSocket session, which speaks the service's protocol (see package
// tunnelwire) and carries public requests to the host as numbered streams,
// and the forwarding of one public request over it.
package relay

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

var errClosed = errors.New("tunnel host disconnected")

// abortError ends a stream the host aborted.
type abortError struct{ code, msg string }

func (e *abortError) Error() string {
	return "tunnel host aborted the request: " + e.code + " " + e.msg
}

// Session is a tunnel host's live WebSocket on the relay side.
type Session struct {
	conn   *websocket.Conn
	raw    io.Closer // the connection under conn (nil if unknown): cut when a close handshake stalls
	w      *tunnelwire.Writer
	slug   string
	limits tunnelwire.Limits
	ctx    context.Context // ends with the session; body pushes wait on it
	cancel context.CancelFunc
	done   chan struct{} // closed once the session is over

	mu      sync.Mutex
	closed  bool
	greeted bool          // Run has sent the hello
	hello   chan struct{} // closed once greeted or closed, whichever is first
	next    uint32
	streams map[uint32]*stream
}

// stream is one public request in flight. The host's response head comes
// first in its body queue, as a nil chunk that says the head is set:
// Forward waits in one place for the head, the body and the end, and a
// stream that ends without a head ends its body with no chunk in it.
type stream struct {
	id      uint32
	status  int             // written by the reader before it queues the marker
	header  http.Header     // likewise
	badHead bool            // likewise: the head is one Node's setHeader refuses
	started bool            // the reader has queued the head (reader goroutine only)
	body    tunnelwire.Body // by value: one allocation less per request

	// A request body longer than one read is pumped to the host on a
	// goroutine of its own while Forward waits for the response; these
	// are nil and zero otherwise.
	pumped chan struct{} // closed when the pump is done
	stop   chan struct{} // closed to stop the pump
	abort  atomic.Bool   // an abort was sent or received: one per stream
}

// New returns the relay side of a host's WebSocket session for the tunnel
// slug. raw, when known, is the connection under conn; cork, when not nil,
// is the Cork between them, which lets a round of messages go out in one
// write. Run serves it. The session may be handed requests (Forward) at
// once: they wait for its hello, which is the host's first message.
func New(conn *websocket.Conn, raw io.Closer, cork *tunnelwire.Cork, slug string) *Session {
	ctx, cancel := context.WithCancel(context.Background())
	return &Session{conn: conn, raw: raw, w: tunnelwire.NewWriter(conn, cork), slug: slug,
		limits: tunnelwire.DefaultLimits, ctx: ctx, cancel: cancel,
		done: make(chan struct{}), hello: make(chan struct{}), streams: map[uint32]*stream{}}
}

// closeGrace bounds a close handshake: a host that stopped reading would
// hold it (and the double's Close, or a replacing session) for
// websocket's 5 s, and a write stuck on it forever.
const closeGrace = 500 * time.Millisecond

// CloseConn closes a WebSocket with code and reason, cutting the
// connection under it (raw, when not nil) if the handshake stalls.
func CloseConn(conn *websocket.Conn, raw io.Closer, code websocket.StatusCode, reason string) {
	if raw != nil {
		t := time.AfterFunc(closeGrace, func() { _ = raw.Close() })
		defer t.Stop()
	}
	_ = conn.Close(code, reason)
}

// Run says hello and reads the host's messages until the connection ends
// or serverCtx does (the double closing).
func (rs *Session) Run(serverCtx context.Context) {
	stop := context.AfterFunc(serverCtx, func() { rs.Close(websocket.StatusGoingAway, "relay shutting down") })
	defer func() {
		stop()
		rs.shutdown()
		rs.cancel()
		_ = rs.conn.CloseNow()
		close(rs.done)
	}()
	if rs.w.Send(tunnelwire.Batch(nil).Hello(rs.slug, rs.limits)) != nil {
		return
	}
	rs.mu.Lock()
	rs.greeted = true
	if !rs.closed { // else shutdown has let the waiters go
		close(rs.hello)
	}
	rs.mu.Unlock()
	r := tunnelwire.NewReader(rs.conn)
	for {
		typ, msg, err := r.Read()
		if err != nil {
			return
		}
		if typ == websocket.MessageBinary {
			err = rs.chunk(msg)
		} else {
			err = rs.control(msg)
		}
		if err != nil {
			rs.Close(websocket.StatusProtocolError, "malformed message")
			return
		}
	}
}

// control hands a text message from the host to its stream. Types the
// host does not send, or that this edge does not know, are ignored.
func (rs *Session) control(msg []byte) error {
	c, err := tunnelwire.DecodeControl(msg)
	if err != nil {
		return err
	}
	switch c.T {
	case tunnelwire.Res, tunnelwire.ResEnd, tunnelwire.Abort:
	default:
		return nil
	}
	st := rs.lookup(c.ID)
	if st == nil {
		return nil // a stream the relay already gave up on, or never had
	}
	switch c.T {
	case tunnelwire.Res:
		if !st.started { // a second head is ignored
			st.started, st.status, st.header = true, c.Status, c.Header
			st.badHead = c.NotBytes || !tunnelwire.ValidHeader(c.Header)
			st.body.Push(rs.ctx, nil)
		}
	case tunnelwire.ResEnd:
		st.body.Finish(nil)
	case tunnelwire.Abort:
		st.abort.Store(true) // the host knows: nothing to tell it back
		st.body.Finish(&abortError{c.Code, c.Msg})
	}
	return nil
}

// chunk hands a binary message from the host to its stream.
func (rs *Session) chunk(msg []byte) error {
	ch, err := tunnelwire.DecodeChunk(msg)
	if err != nil {
		return err
	}
	if ch.Kind != tunnelwire.ResChunk {
		return nil
	}
	st := rs.lookup(ch.ID)
	if st == nil || !st.started { // a body before its head is not a response
		return nil
	}
	// The protocol has no flow control. A stream queues up to
	// MaxQueuedResponse; past that the session's reader waits for its
	// public caller to read, since a host's burst can outrun a caller that
	// reads as fast as it can (cutting at the bound cut such callers at
	// random). A caller that stopped reading, or reads under
	// MaxQueuedResponse a second, is cut once the reader has waited
	// SlowCallerGrace on it, and the host told: it holds every other
	// stream, and the host's pings, for about that long.
	if err := st.body.AddPaced(bytes.Clone(ch.Payload), MaxQueuedResponse, SlowCallerGrace); err != nil { // the payload aliases the read buffer
		rs.sendAbort(st, tunnelwire.AbortOverloaded)
		st.body.Abort(errSlowCaller) // what was queued is dropped at once
	}
	return nil
}

// MaxQueuedResponse caps the response bytes the edge holds for one stream
// whose public caller has not read them yet.
const MaxQueuedResponse = 4 << 20

// SlowCallerGrace is how long the edge waits on a public caller that is
// MaxQueuedResponse behind before it cuts one that reads under
// MaxQueuedResponse a second (or nothing).
const SlowCallerGrace = time.Second

// errSlowCaller cuts a response whose caller fell MaxQueuedResponse behind.
var errSlowCaller = errors.New("the public caller fell too far behind the response")

// Close disconnects the host with a close code it understands; streams in
// flight fail at once, before the close handshake.
func (rs *Session) Close(code websocket.StatusCode, reason string) {
	if rs.shutdown() {
		CloseConn(rs.conn, rs.raw, code, reason)
	}
}

// Done is closed once the session is over.
func (rs *Session) Done() <-chan struct{} { return rs.done }

// shutdown marks the session closed and fails its streams; it reports
// whether this call did it.
func (rs *Session) shutdown() bool {
	rs.mu.Lock()
	if rs.closed {
		rs.mu.Unlock()
		return false
	}
	rs.closed = true
	if !rs.greeted { // requests waiting for the hello fail now
		close(rs.hello)
	}
	streams := rs.streams
	rs.streams = map[uint32]*stream{}
	rs.mu.Unlock()
	for _, st := range streams {
		st.body.Finish(errClosed)
	}
	return true
}

// errOverloaded is open's answer when MaxInflight streams are open.
var errOverloaded = errors.New("too many requests in flight")

// open starts a stream: errClosed when the session is closed,
// errOverloaded when it has as many streams as the limits allow. On a
// session whose hello is not sent yet (the tunnel's newest, just
// connected) it waits for the hello first, so that a req never reaches the
// host before it; ctx's error if ctx ends first.
func (rs *Session) open(ctx context.Context) (*stream, error) {
	rs.mu.Lock()
	if !rs.greeted && !rs.closed { // rare: one branch on the way of every request
		rs.mu.Unlock()
		select {
		case <-rs.hello:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		rs.mu.Lock()
	}
	defer rs.mu.Unlock()
	switch {
	case rs.closed:
		return nil, errClosed
	case len(rs.streams) >= rs.limits.MaxInflight:
		return nil, errOverloaded
	}
	rs.next++
	st := &stream{id: rs.next}
	rs.streams[rs.next] = st
	return st, nil
}

func (rs *Session) lookup(id uint32) *stream {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.streams[id]
}

func (rs *Session) forget(st *stream) {
	rs.mu.Lock()
	if rs.streams[st.id] == st {
		delete(rs.streams, st.id)
	}
	rs.mu.Unlock()
	_ = st.body.Close()
}

// sendAbort tells the host a stream is over, once per stream.
func (rs *Session) sendAbort(st *stream, code string) {
	if st.abort.CompareAndSwap(false, true) {
		_ = rs.w.Send(tunnelwire.Batch(nil).Abort(st.id, code, ""))
	}
}
