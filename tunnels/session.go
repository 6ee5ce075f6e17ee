package tunnels

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// session is one relay connection on the host side: it reads the edge's
// messages and serves each relayed request on its own goroutine.
type session struct {
	conn     *websocket.Conn
	raw      io.Closer          // the connection under conn (nil if unknown): closed when a close handshake stalls
	w        *tunnelwire.Writer // writes a round of messages in one write
	h        http.Handler
	log      *slog.Logger
	onReady  func()
	serverID string        // the grant's: the edge forwards /api/mcp/adapter-http/{serverID}[/rest]
	secret   string        // the grant's ?k= secret ("" if unknown): never handed to the handler
	ping     time.Duration // heartbeat interval; 0 for none

	reqCtx     context.Context   // the session's values without its cancellation: requests derive from it
	holdsReads bool              // the reader reports a socket read before it makes one (a Cork under the connection)
	limits     tunnelwire.Limits // the edge's, from its first hello; read and written by the reader alone
	greeted    bool              // the first hello has been taken in
	served     bool              // a req was taken in, not refused (read once run has returned)

	mu sync.Mutex
	// streams are the requests the edge still counts against maxInflight:
	// each leaves when the host sends its res_end or abort, or the edge
	// aborts it or reuses its id, whether or not its handler has returned.
	streams  map[uint32]*stream
	pending  []*stream   // requests whose handlers wait for their body or the reader's next socket read
	handlers *handlerSet // of every session of one Serve
}

var errSessionEnded = errors.New("tunnels: relay session ended")

// closeGrace bounds the close handshake when Serve's context ends.
const closeGrace = 500 * time.Millisecond

func newSession(conn *websocket.Conn, cork *tunnelwire.Cork, h http.Handler, log *slog.Logger, handlers *handlerSet) *session {
	s := &session{conn: conn, w: tunnelwire.NewWriter(conn, cork), h: h, log: log, streams: map[uint32]*stream{},
		handlers: handlers}
	s.limits = tunnelwire.DefaultLimits
	if cork != nil {
		s.raw = cork
		cork.BeforeRead, s.holdsReads = s.startPending, true
	}
	return s
}

// run reads messages until the connection ends or ctx does, then cancels
// the requests in flight. It does not wait for their handlers: one that
// ignores its context would hold up reconnecting (and Serve's return);
// its writes fail from then on, as the stream is gone.
func (s *session) run(ctx context.Context) error {
	sctx, cancel := context.WithCancel(ctx)
	// Requests carry the session's values but are cancelled one by one
	// when it ends (each is in s.streams): registering every request with
	// a cancellable parent costs a lock and a map entry apiece.
	s.reqCtx = context.WithoutCancel(sctx)
	// Closing is how a blocked Read is interrupted: a Read whose context
	// ends would tear the connection down without a close handshake.
	// A relay that stopped answering would hold the close handshake for
	// websocket's 5 s: closeGrace after ctx ends, the connection under the
	// WebSocket is closed, which ends the handshake and the read. (A read
	// with a cancellable context would cost allocations on every read.)
	stop := context.AfterFunc(ctx, func() {
		if s.raw != nil {
			t := time.AfterFunc(closeGrace, func() { _ = s.raw.Close() })
			defer t.Stop()
		}
		_ = s.conn.Close(websocket.StatusNormalClosure, "host shutting down")
	})
	var beats sync.WaitGroup
	defer func() {
		stop()
		cancel()
		s.endStreams()
		// A handler blocked writing to a relay that stopped reading is
		// released by the close.
		_ = s.conn.CloseNow()
		beats.Wait()
	}()
	if s.ping > 0 {
		beats.Go(func() { s.heartbeat(sctx) })
	}
	r := tunnelwire.NewReader(s.conn)
	for {
		typ, msg, err := r.Read()
		if err != nil {
			return sessionError(err)
		}
		if typ == websocket.MessageText {
			err = s.control(msg)
		} else {
			err = s.chunkMsg(msg)
		}
		if err != nil {
			// Dropped, as the service's own agent drops a message that is
			// not JSON (this host also drops one that is not the
			// protocol's shape): one bad message does not cut every
			// stream in flight.
			s.log.Warn("tunnels: dropped a relay message that could not be read", "error", err.Error())
		}
	}
}

// endStreams cancels the requests in flight when the session ends, and
// lets go of those whose handlers never started: they would count as
// running, across reconnects, for ever.
func (s *session) endStreams() {
	s.mu.Lock()
	for _, st := range s.streams {
		st.cancel()
		st.body.Abort(errSessionEnded)
	}
	pending := s.pending
	s.pending = nil
	s.mu.Unlock()
	for _, st := range pending { // never to start: the reader reads no more
		st.close()
	}
}

// heartbeat pings the edge every s.ping, as the service's own agent does:
// a relay that has not answered a ping within two intervals (a connection
// a sleeping laptop or a dead NAT left half open) is dropped, and Serve
// reconnects.
func (s *session) heartbeat(ctx context.Context) {
	t := time.NewTicker(s.ping)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, 2*s.ping)
		err := s.conn.Ping(pctx)
		cancel()
		if err != nil {
			if ctx.Err() == nil {
				s.log.Warn("tunnels: the relay stopped answering pings; reconnecting")
				_ = s.conn.CloseNow()
			}
			return
		}
	}
}

// sessionError maps the edge's close codes to the package's errors.
func sessionError(err error) error {
	switch websocket.CloseStatus(err) {
	case tunnelwire.CloseRevoked:
		return ErrRevoked
	case tunnelwire.CloseReplaced:
		return ErrReplaced
	case tunnelwire.CloseBadToken:
		return ErrTokenRejected
	}
	return fmt.Errorf("%w: %w", errSessionEnded, err)
}

// control handles a text message. Types this host does not know are
// ignored: later protocol additions stay compatible with it.
func (s *session) control(msg []byte) error {
	c, err := tunnelwire.DecodeControl(msg)
	if err != nil {
		return err
	}
	switch c.T {
	case tunnelwire.Hello:
		if s.greeted {
			// The hello is the handshake: only the first one's limits
			// count (the service's agent reads none of them). Limits that
			// changed mid-session would change the chunk size under
			// responses being written.
			return nil
		}
		s.greeted = true
		s.limits = sessionLimits(c.Limits)
		if s.onReady != nil {
			s.onReady()
			s.onReady = nil
		}
	case tunnelwire.Req:
		s.start(&c)
	case tunnelwire.ReqEnd:
		if st := s.stream(c.ID); st != nil {
			st.body.Finish(nil)
			if s.unpend(st) {
				s.launch(st)
			}
		}
	case tunnelwire.Abort:
		// The edge has forgotten the stream: so does the host, at once. A
		// handler reading its body gets an error, as from a net/http
		// client that went away.
		s.mu.Lock()
		if st := s.streams[c.ID]; st != nil {
			s.retireLocked(st, context.Canceled)
		}
		s.mu.Unlock()
	}
	return nil
}

// chunkMsg handles a binary message: a piece of a request body. Other
// kinds are ignored.
func (s *session) chunkMsg(msg []byte) error {
	c, err := tunnelwire.DecodeChunk(msg)
	if err != nil {
		return err
	}
	if c.Kind != tunnelwire.ReqChunk {
		return nil
	}
	st := s.stream(c.ID)
	if st == nil {
		return nil
	}
	// Queued without waiting, up to the session's cap on a request body:
	// a handler that does not read its body holds up no other stream (the
	// protocol has no flow control of its own), and memory stays bounded.
	if err := st.body.Add(bytes.Clone(c.Payload), s.limits.MaxReqBody); err != nil { // c aliases the read buffer
		// Let go before the abort goes out: the edge may send its next
		// req as soon as it reads it.
		s.mu.Lock()
		if s.streams[c.ID] == st {
			s.retireLocked(st, err)
		}
		s.mu.Unlock()
		_ = s.w.Send(tunnelwire.Batch(nil).Abort(c.ID, tunnelwire.AbortTooLarge, ""))
	}
	return nil
}

func (s *session) stream(id uint32) *stream {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.streams[id]
}
