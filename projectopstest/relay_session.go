package projectopstest

import (
	"context"
	"errors"
	"sync"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

var errRelayClosed = errors.New("tunnel host disconnected")

// relaySession is a tunnel host's live WebSocket on the relay side. Public
// requests are multiplexed over it as streams (see package tunnels for the
// frame protocol).
type relaySession struct {
	conn   *websocket.Conn
	w      *tunnelwire.Writer
	batch  bool            // the host reads Batch frames (it said so when dialing)
	ctx    context.Context // ends with the session; frames are written with it
	cancel context.CancelFunc
	done   chan struct{} // closed once the session is over

	mu      sync.Mutex
	closed  bool
	next    uint32
	streams map[uint32]*relayStream
}

// relayStream is one public request in flight: the host's response head
// and its body chunks.
type relayStream struct {
	head chan *tunnelwire.Head // capacity 1
	body *tunnelwire.Body
}

func newRelaySession(conn *websocket.Conn, batch bool) *relaySession {
	ctx, cancel := context.WithCancel(context.Background())
	return &relaySession{conn: conn, w: tunnelwire.NewWriter(conn, batch), batch: batch, ctx: ctx, cancel: cancel,
		done: make(chan struct{}), streams: map[uint32]*relayStream{}}
}

// run announces the session and reads the host's frames until the
// connection ends or serverCtx does (the double closing).
func (rs *relaySession) run(serverCtx context.Context) {
	stop := context.AfterFunc(serverCtx, func() { rs.close(websocket.StatusGoingAway, "relay shutting down") })
	defer func() {
		stop()
		rs.shutdown()
		rs.cancel()
		_ = rs.conn.CloseNow()
		close(rs.done)
	}()
	var features []byte
	if rs.batch {
		features = []byte(tunnelwire.FeatureBatch)
	}
	if rs.send(tunnelwire.Encode(tunnelwire.Ready, 0, features)) != nil {
		return
	}
	for {
		typ, msg, err := rs.conn.Read(context.Background())
		if err != nil {
			return
		}
		f, err := tunnelwire.Decode(msg)
		if typ == websocket.MessageBinary && err == nil {
			err = rs.dispatch(f)
		}
		if typ != websocket.MessageBinary || err != nil {
			rs.close(websocket.StatusProtocolError, "malformed frame")
			return
		}
	}
}

// dispatch hands one frame from the host to its stream.
func (rs *relaySession) dispatch(f tunnelwire.Frame) error {
	if f.Kind == tunnelwire.Batch {
		return tunnelwire.SplitBatch(f.Payload, rs.dispatch)
	}
	st := rs.stream(f.ID)
	if st == nil {
		return nil // a stream the relay already gave up on
	}
	switch f.Kind {
	case tunnelwire.Response:
		h, err := tunnelwire.DecodeHead(f.Payload)
		if err != nil {
			return err
		}
		select {
		case st.head <- h:
		default: // a second head is ignored
		}
	case tunnelwire.Data:
		st.body.Push(rs.ctx, f.Payload)
	case tunnelwire.End:
		st.body.Finish(tunnelwire.EndError(f.Payload))
	}
	return nil
}

// close disconnects the host with a close code it understands; streams in
// flight fail at once, before the close handshake.
func (rs *relaySession) close(code websocket.StatusCode, reason string) {
	if rs.shutdown() {
		_ = rs.conn.Close(code, reason)
	}
}

// shutdown marks the session closed and fails its streams; it reports
// whether this call did it.
func (rs *relaySession) shutdown() bool {
	rs.mu.Lock()
	if rs.closed {
		rs.mu.Unlock()
		return false
	}
	rs.closed = true
	streams := rs.streams
	rs.streams = map[uint32]*relayStream{}
	rs.mu.Unlock()
	for _, st := range streams {
		st.body.Finish(errRelayClosed)
	}
	return true
}

// open starts a stream; false when the session is closed.
func (rs *relaySession) open() (uint32, *relayStream, bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.closed {
		return 0, nil, false
	}
	rs.next++
	st := &relayStream{head: make(chan *tunnelwire.Head, 1), body: tunnelwire.NewBody()}
	rs.streams[rs.next] = st
	return rs.next, st, true
}

func (rs *relaySession) stream(id uint32) *relayStream {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.streams[id]
}

func (rs *relaySession) forget(id uint32) {
	rs.mu.Lock()
	if st := rs.streams[id]; st != nil {
		delete(rs.streams, id)
		_ = st.body.Close()
	}
	rs.mu.Unlock()
}

// send writes frames together (one message when the host reads batches).
func (rs *relaySession) send(frames ...[]byte) error {
	return rs.w.Send(rs.ctx, frames...)
}
