package tunnels

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// session is one relay connection on the host side: it reads frames and
// serves each relayed request on its own goroutine.
type session struct {
	conn    *websocket.Conn
	raw     io.Closer          // the connection under conn (nil if unknown): closed when a close handshake stalls
	w       *tunnelwire.Writer // batches once the relay's Ready allows it
	h       http.Handler
	log     *slog.Logger
	onReady func()

	ctx    context.Context // ends with the session: body pushes wait on it
	reqCtx context.Context // the session's values without its cancellation: requests derive from it
	credit bool            // the relay keeps to stream windows (Ready said so): set before any request

	mu      sync.Mutex
	streams map[uint32]*stream
	wg      *sync.WaitGroup // the handlers running, of every session of one Serve
}

// stream is one relayed request being served.
type stream struct {
	s       *session
	id      uint32
	stop    context.CancelCauseFunc // with errStreamEnded: see cancel
	body    tunnelwire.Body         // by value: one allocation less per request
	credits tunnelwire.Credits      // the response body's window, with credit
}

var errSessionEnded = errors.New("tunnels: relay session ended")

// closeGrace bounds the close handshake when Serve's context ends.
const closeGrace = 500 * time.Millisecond

func newSession(conn *websocket.Conn, h http.Handler, log *slog.Logger, handlers *sync.WaitGroup) *session {
	return &session{conn: conn, w: tunnelwire.NewWriter(conn, false), h: h, log: log, streams: map[uint32]*stream{},
		wg: handlers}
}

// run reads frames until the connection ends or ctx does, then cancels the
// requests in flight. It does not wait for their handlers: one that
// ignores its context would hold up reconnecting (and Serve's return);
// its writes fail from then on, as the stream is gone.
func (s *session) run(ctx context.Context) error {
	sctx, cancel := context.WithCancel(ctx)
	// Requests carry the session's values but are cancelled one by one
	// when it ends (each is in s.streams): registering every request with
	// a cancellable parent costs a lock and a map entry apiece.
	s.ctx, s.reqCtx = sctx, context.WithoutCancel(sctx)
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
	defer func() {
		stop()
		cancel()
		s.mu.Lock()
		for _, st := range s.streams {
			st.cancel()
			st.body.Finish(errSessionEnded)
			st.credits.Close()
		}
		s.mu.Unlock()
		// A handler blocked writing to a relay that stopped reading is
		// released by the close.
		_ = s.conn.CloseNow()
	}()
	r := tunnelwire.NewReader(s.conn)
	for {
		typ, msg, err := r.Read()
		if err != nil {
			return sessionError(err)
		}
		if typ != websocket.MessageBinary {
			_ = s.conn.Close(websocket.StatusUnsupportedData, "binary frames only")
			return fmt.Errorf("tunnels: relay sent a text message: %w", tunnelwire.ErrMalformed)
		}
		f, err := tunnelwire.Decode(msg)
		if err != nil {
			_ = s.conn.Close(websocket.StatusProtocolError, "malformed frame")
			return fmt.Errorf("tunnels: %w", err)
		}
		if err := s.handle(f); err != nil {
			_ = s.conn.Close(websocket.StatusProtocolError, "malformed frame")
			return fmt.Errorf("tunnels: %w", err)
		}
	}
}

// sessionError maps the relay's close codes to the package's errors.
func sessionError(err error) error {
	switch websocket.CloseStatus(err) {
	case tunnelwire.CloseRevoked:
		return ErrRevoked
	case tunnelwire.CloseReplaced:
		return ErrReplaced
	}
	return fmt.Errorf("%w: %w", errSessionEnded, err)
}

func (s *session) handle(f tunnelwire.Frame) error {
	switch f.Kind {
	case tunnelwire.Ready:
		// The payload lists the features the relay will use; a relay
		// that sends batches reads them too.
		s.w.SetBatch(tunnelwire.HasFeature(string(f.Payload), tunnelwire.FeatureBatch))
		s.credit = tunnelwire.HasFeature(string(f.Payload), tunnelwire.FeatureCredit)
		if s.onReady != nil {
			s.onReady()
			s.onReady = nil
		}
	case tunnelwire.Request:
		h, err := tunnelwire.DecodeHead(f.Payload)
		if err != nil {
			return err
		}
		s.start(f.ID, h)
	case tunnelwire.Data:
		st := s.stream(f.ID)
		switch {
		case st == nil:
		case s.credit:
			// Never waits: the relay keeps to the stream's window, and
			// one that does not loses the stream, not the session.
			if err := st.body.Offer(bytes.Clone(f.Payload)); err != nil { // f aliases the read buffer
				st.cancel()
				st.body.Finish(err)
			}
		default:
			st.body.Push(s.ctx, bytes.Clone(f.Payload))
		}
	case tunnelwire.Credit:
		n, err := tunnelwire.CreditCount(f.Payload)
		if err != nil {
			return err
		}
		if st := s.stream(f.ID); st != nil {
			st.credits.Add(n)
		}
	case tunnelwire.End:
		if st := s.stream(f.ID); st != nil {
			st.body.Finish(tunnelwire.EndError(f.Payload))
		}
	case tunnelwire.Cancel:
		if st := s.stream(f.ID); st != nil {
			st.cancel()
			st.credits.Close()
			// The rest of the body will not come: a handler reading it
			// gets an error, as from a net/http client that went away.
			st.body.Finish(context.Canceled)
		}
	case tunnelwire.Batch:
		return tunnelwire.SplitBatch(f.Payload, s.handle)
	default:
		// Unknown kinds are ignored: later protocol additions stay
		// compatible with this host.
	}
	return nil
}

func (s *session) stream(id uint32) *stream {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.streams[id]
}

// errStreamEnded is the cause of a stream's context when the tunnel ends
// it (the caller gone, a reused id, the stream or session done): ProxyTo
// then has nothing left to abort, unlike a context the user's middleware
// ended.
var errStreamEnded = errors.New("tunnels: the relayed request ended")

// start serves one relayed request on its own goroutine.
func (s *session) start(id uint32, h *tunnelwire.Head) {
	ctx, stop := context.WithCancelCause(s.reqCtx)
	st := &stream{s: s, id: id, stop: stop}
	if s.credit {
		st.body.Credit = st
	}
	s.mu.Lock()
	if old := s.streams[id]; old != nil {
		old.cancel() // a reused id: the relay gave up on the old one
	}
	s.streams[id] = st
	s.mu.Unlock()
	s.wg.Add(1)
	go st.run(ctx, h)
}

// cancel ends the stream's request context (a method, not a closure: one
// allocation less per request).
func (st *stream) cancel() { st.stop(errStreamEnded) }

// run serves the stream's request, then lets go of the stream.
func (st *stream) run(ctx context.Context, h *tunnelwire.Head) {
	s := st.s
	defer s.wg.Done()
	defer func() {
		st.cancel()
		st.credits.Close()
		_ = st.body.Close()
		s.mu.Lock()
		if s.streams[st.id] == st {
			delete(s.streams, st.id)
		}
		s.mu.Unlock()
	}()
	s.serve(ctx, st.id, h, st)
}

func (s *session) serve(ctx context.Context, id uint32, h *tunnelwire.Head, st *stream) {
	body := &st.body
	w := newResponseWriter(s, id, ctx)
	if s.credit {
		w.credits = &st.credits
	}
	defer w.release()
	// The uri is origin-form, read as net/http's server reads a request
	// line: "//x/mcp" is a path, not an authority and the path /mcp. A
	// relay forwarding the bare tunnel root sends "" or "?q": that is "/".
	uri := h.URI
	if uri == "" || uri[0] == '?' {
		uri = "/" + uri
	}
	req, err := newServerRequest(ctx, h.Method, uri, body)
	if err != nil {
		w.group = w.group.AppendEnd(id, errors.New("malformed request line"))
		w.push()
		return
	}
	req.RequestURI = uri
	if h.Header != nil {
		req.Header = h.Header
	}
	req.Host = req.Header.Get("X-Forwarded-Host")
	req.RemoteAddr = "tunnel"
	req.ContentLength = -1
	if n, err := strconv.ParseInt(req.Header.Get("Content-Length"), 10, 64); err == nil && n >= 0 {
		req.ContentLength = n
	}
	if req.ContentLength == 0 {
		req.Body = http.NoBody
	}
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				s.log.Error("tunnels: handler panic", "method", h.Method, "panic", fmt.Sprint(v))
			}
			w.finish(errors.New("handler failed"))
		}
	}()
	s.h.ServeHTTP(w, req)
	w.finish(nil)
}

// newServerRequest is the request for an origin-form uri, its URL as
// url.ParseRequestURI reads it. A path that url.Parse reads alike (it
// starts with one slash and has no '#') is parsed by NewRequest itself,
// saving the URL that parsing another target for it would cost.
func newServerRequest(ctx context.Context, method, uri string, body io.Reader) (*http.Request, error) {
	if len(uri) > 0 && uri[0] == '/' && (len(uri) == 1 || uri[1] != '/') && !strings.Contains(uri, "#") {
		return http.NewRequestWithContext(ctx, method, uri, body)
	}
	u, err := url.ParseRequestURI(uri)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, "/", body)
	if err != nil {
		return nil, err
	}
	req.URL = u
	return req, nil
}

// Credit returns n consumed request chunks to the relay (on the handler's
// goroutine, as it reads its body).
func (st *stream) Credit(n int) {
	_ = st.s.w.Send(tunnelwire.Group(nil).Append(tunnelwire.Credit, st.id, tunnelwire.CreditPayload(n)))
}
