// Package relay is the double's relay edge of a tunnel: the host's live
// WebSocket session, over which public requests are multiplexed as streams
// (see package tunnels for the frame protocol), and the forwarding of one
// public request over it.
package relay

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

var errClosed = errors.New("tunnel host disconnected")

// Session is a tunnel host's live WebSocket on the relay side.
type Session struct {
	conn   *websocket.Conn
	raw    io.Closer // the connection under conn (nil if unknown): cut when a close handshake stalls
	w      *tunnelwire.Writer
	batch  bool            // the host reads Batch frames (it said so when dialing)
	credit bool            // the host keeps to stream windows and returns credit (it said so when dialing)
	ctx    context.Context // ends with the session; body pushes wait on it
	cancel context.CancelFunc
	done   chan struct{} // closed once the session is over

	mu      sync.Mutex
	closed  bool
	next    uint32
	streams map[uint32]*stream
}

// stream is one public request in flight. The host's response head comes
// first in its body queue, as a nil chunk that says head is set: Forward
// waits in one place for the head, the body and the end, and a stream
// that ends without a head ends its body with no chunk in it.
type stream struct {
	rs      *Session
	id      uint32
	head    *tunnelwire.Head   // written by the reader before it queues the marker
	started bool               // the reader has queued the head (reader goroutine only)
	body    tunnelwire.Body    // by value: one allocation less per request
	credits tunnelwire.Credits // the request body's window, with credit
}

// New returns the relay side of a host's WebSocket session; batch says
// the host reads Batch frames, credit that it keeps to stream windows;
// raw, when known, is the connection under conn. Run serves it.
func New(conn *websocket.Conn, raw io.Closer, batch, credit bool) *Session {
	ctx, cancel := context.WithCancel(context.Background())
	return &Session{conn: conn, raw: raw, w: tunnelwire.NewWriter(conn, batch), batch: batch, credit: credit, ctx: ctx, cancel: cancel,
		done: make(chan struct{}), streams: map[uint32]*stream{}}
}

// closeGrace bounds a close handshake: a host that stopped reading would
// hold it (and the double's Close, or a replacing session) for
// websocket's 5 s, and a write stuck on it forever.
const closeGrace = 500 * time.Millisecond

// Run announces the session and reads the host's frames until the
// connection ends or serverCtx does (the double closing).
func (rs *Session) Run(serverCtx context.Context) {
	stop := context.AfterFunc(serverCtx, func() { rs.Close(websocket.StatusGoingAway, "relay shutting down") })
	defer func() {
		stop()
		rs.shutdown()
		rs.cancel()
		_ = rs.conn.CloseNow()
		close(rs.done)
	}()
	var used []string
	if rs.batch {
		used = append(used, tunnelwire.FeatureBatch)
	}
	if rs.credit {
		used = append(used, tunnelwire.FeatureCredit)
	}
	features := []byte(strings.Join(used, ","))
	if rs.send(tunnelwire.Group(nil).Append(tunnelwire.Ready, 0, features)) != nil {
		return
	}
	r := tunnelwire.NewReader(rs.conn)
	for {
		typ, msg, err := r.Read()
		if err != nil {
			return
		}
		f, err := tunnelwire.Decode(msg)
		if typ == websocket.MessageBinary && err == nil {
			err = rs.dispatch(f)
		}
		if typ != websocket.MessageBinary || err != nil {
			rs.Close(websocket.StatusProtocolError, "malformed frame")
			return
		}
	}
}

// dispatch hands one frame from the host to its stream.
func (rs *Session) dispatch(f tunnelwire.Frame) error {
	if f.Kind == tunnelwire.Batch {
		return tunnelwire.SplitBatch(f.Payload, rs.dispatch)
	}
	st := rs.lookup(f.ID)
	if st == nil {
		return nil // a stream the relay already gave up on
	}
	switch f.Kind {
	case tunnelwire.Response:
		h, err := tunnelwire.DecodeHead(f.Payload)
		if err != nil {
			return err
		}
		if !st.started { // a second head is ignored
			st.started, st.head = true, h
			st.body.Push(rs.ctx, nil)
		}
	case tunnelwire.Data:
		switch {
		case !st.started: // a body before its head is not a response
		case rs.credit:
			// Never waits: the host keeps to the stream's window (a
			// public caller that reads slowly holds up its own stream
			// only), and one that does not loses the stream.
			if err := st.body.Offer(bytes.Clone(f.Payload)); err != nil { // f aliases the read buffer
				st.body.Finish(err)
			}
		default:
			st.body.Push(rs.ctx, bytes.Clone(f.Payload))
		}
	case tunnelwire.Credit:
		n, err := tunnelwire.CreditCount(f.Payload)
		if err != nil {
			return err
		}
		st.credits.Add(n)
	case tunnelwire.End:
		st.body.Finish(tunnelwire.EndError(f.Payload))
	}
	return nil
}

// Close disconnects the host with a close code it understands; streams in
// flight fail at once, before the close handshake.
func (rs *Session) Close(code websocket.StatusCode, reason string) {
	if rs.shutdown() {
		if rs.raw != nil {
			t := time.AfterFunc(closeGrace, func() { _ = rs.raw.Close() })
			defer t.Stop()
		}
		_ = rs.conn.Close(code, reason)
	}
}

// shutdown marks the session closed and fails its streams; it reports
// whether this call did it.
func (rs *Session) shutdown() bool {
	rs.mu.Lock()
	if rs.closed {
		rs.mu.Unlock()
		return false
	}
	rs.closed = true
	streams := rs.streams
	rs.streams = map[uint32]*stream{}
	rs.mu.Unlock()
	for _, st := range streams {
		st.body.Finish(errClosed)
		st.credits.Close()
	}
	return true
}

// open starts a stream; false when the session is closed.
func (rs *Session) open() (uint32, *stream, bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.closed {
		return 0, nil, false
	}
	rs.next++
	st := &stream{rs: rs, id: rs.next}
	if rs.credit {
		st.body.Credit = st
	}
	rs.streams[rs.next] = st
	return rs.next, st, true
}

func (rs *Session) lookup(id uint32) *stream {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.streams[id]
}

func (rs *Session) forget(id uint32) {
	rs.mu.Lock()
	if st := rs.streams[id]; st != nil {
		delete(rs.streams, id)
		_ = st.body.Close()
		st.credits.Close()
	}
	rs.mu.Unlock()
}

// send writes a group of frames (one message when the host reads batches).
func (rs *Session) send(g tunnelwire.Group) error {
	return rs.w.Send(g)
}

// Credit returns n consumed response chunks to the host (on Forward's
// goroutine, as it writes the response).
func (st *stream) Credit(n int) {
	_ = st.rs.send(tunnelwire.Group(nil).Append(tunnelwire.Credit, st.id, tunnelwire.CreditPayload(n)))
}
