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
	"github.com/projectops/projectops-go/internal/wire"
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
	ping     time.Duration // heartbeat interval; 0 for none

	reqCtx     context.Context   // the session's values without its cancellation: requests derive from it
	holdsReads bool              // the reader reports a socket read before it makes one (a Cork under the connection)
	limits     tunnelwire.Limits // the edge's, from its hello

	mu      sync.Mutex
	streams map[uint32]*stream
	pending []*stream       // requests whose handlers wait for their body or the reader's next socket read
	wg      *sync.WaitGroup // the handlers running, of every session of one Serve
}

// stream is one relayed request being served.
type stream struct {
	s    *session
	id   uint32
	stop context.CancelCauseFunc // with errStreamEnded: see cancel
	body tunnelwire.Body         // by value: one allocation less per request

	ctx context.Context     // the request's, until its handler starts
	req *tunnelwire.Control // the req message, until its handler starts
}

var errSessionEnded = errors.New("tunnels: relay session ended")

// closeGrace bounds the close handshake when Serve's context ends.
const closeGrace = 500 * time.Millisecond

func newSession(conn *websocket.Conn, cork *tunnelwire.Cork, h http.Handler, log *slog.Logger, handlers *sync.WaitGroup) *session {
	s := &session{conn: conn, w: tunnelwire.NewWriter(conn, cork), h: h, log: log, streams: map[uint32]*stream{},
		wg: handlers, limits: tunnelwire.DefaultLimits}
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
		s.mu.Lock()
		for _, st := range s.streams {
			st.cancel()
			st.body.Finish(errSessionEnded)
		}
		s.mu.Unlock()
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
		s.limits = c.Limits.OrDefault()
		s.limits.Chunk = min(s.limits.Chunk, tunnelwire.MaxChunk)
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
		if st := s.stream(c.ID); st != nil {
			st.cancel()
			// The rest of the body will not come: a handler reading it
			// gets an error, as from a net/http client that went away.
			st.body.Finish(context.Canceled)
			if s.unpend(st) { // never started: nobody to tell
				s.forget(st)
			}
		}
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
	// Queued without waiting, up to the edge's own cap on a request body:
	// a handler that does not read its body holds up no other stream (the
	// protocol has no flow control of its own), and memory stays bounded.
	if err := st.body.Add(bytes.Clone(c.Payload), s.limits.MaxReqBody); err != nil { // c aliases the read buffer
		st.cancel()
		st.body.Finish(err)
		if s.unpend(st) { // never started: nobody to serve
			s.forget(st)
		}
		_ = s.w.Send(tunnelwire.Batch(nil).Abort(c.ID, tunnelwire.AbortTooLarge, ""))
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

// start serves one relayed request on its own goroutine. A request whose
// body is still to come waits for it: its handler starts at req_end, or
// when the session's reader is about to wait on the socket (the body is
// slow to come, or streams), whichever is first. The edge sends a small
// request's messages together, so its handler nearly always starts with
// the whole body queued instead of parking for it.
func (s *session) start(c *tunnelwire.Control) {
	ctx, stop := context.WithCancelCause(s.reqCtx)
	st := &stream{s: s, id: c.ID, stop: stop, ctx: ctx, req: c}
	if !c.HasBody {
		st.body.Finish(nil) // no chunks and no req_end follow
	}
	wait := c.HasBody && s.holdsReads
	s.mu.Lock()
	if old := s.streams[c.ID]; old != nil {
		// A reused id: the edge gave up on the old stream. Its handler,
		// if it started, is cancelled and its body read released.
		old.cancel()
		old.body.Finish(context.Canceled)
		if s.unpendLocked(old) {
			_ = old.body.Close()
		}
	}
	s.streams[c.ID] = st
	if wait {
		s.pending = append(s.pending, st)
	}
	s.mu.Unlock()
	if !wait {
		s.launch(st)
	}
}

// launch starts a stream's handler.
func (s *session) launch(st *stream) {
	ctx, c := st.ctx, st.req
	st.ctx, st.req = nil, nil
	s.wg.Add(1)
	go st.run(ctx, c)
}

// startPending starts the handlers still waiting for their body: the
// reader is about to wait on the socket.
func (s *session) startPending() {
	s.mu.Lock()
	pending := s.pending
	s.pending = s.pending[len(s.pending):]
	s.mu.Unlock()
	for i, st := range pending {
		s.launch(st)
		pending[i] = nil
	}
}

// unpend takes st off the pending list; it reports whether it was there.
func (s *session) unpend(st *stream) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.unpendLocked(st)
}

func (s *session) unpendLocked(st *stream) bool {
	for i, p := range s.pending {
		if p == st {
			s.pending = append(s.pending[:i], s.pending[i+1:]...)
			return true
		}
	}
	return false
}

// forget lets go of a stream whose handler never started.
func (s *session) forget(st *stream) {
	_ = st.body.Close()
	s.mu.Lock()
	if s.streams[st.id] == st {
		delete(s.streams, st.id)
	}
	s.mu.Unlock()
}

// cancel ends the stream's request context (a method, not a closure: one
// allocation less per request).
func (st *stream) cancel() { st.stop(errStreamEnded) }

// run serves the stream's request, then lets go of the stream.
func (st *stream) run(ctx context.Context, c *tunnelwire.Control) {
	s := st.s
	defer s.wg.Done()
	defer func() {
		st.cancel()
		_ = st.body.Close()
		s.mu.Lock()
		if s.streams[st.id] == st {
			delete(s.streams, st.id)
		}
		s.mu.Unlock()
	}()
	s.serve(ctx, c, st)
}

func (s *session) serve(ctx context.Context, c *tunnelwire.Control, st *stream) {
	w := newResponseWriter(s, c.ID, ctx)
	defer w.release()
	uri, ok := s.localURI(c.URL)
	if !ok {
		// The edge keeps requests to the tunnel's path; one outside it
		// never reaches the handler.
		w.header.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, "tunnels: only the tunnel's path is served\n")
		w.finish(nil)
		return
	}
	req, err := newServerRequest(ctx, c.Method, uri, &st.body)
	if err != nil {
		w.finish(errors.New("malformed request line"))
		return
	}
	req.RequestURI = uri
	if c.Header != nil {
		req.Header = c.Header
	}
	// A page served through the tunnel names the public URL, secret and
	// all, in its sub-requests' Referer: the handler never sees k.
	for i, v := range req.Header["Referer"] {
		req.Header["Referer"][i] = wire.RedactSecretQuery(v)
	}
	req.Host = req.Header.Get("X-Forwarded-Host")
	req.RemoteAddr = "tunnel"
	req.ContentLength = -1
	if n, err := strconv.ParseInt(req.Header.Get("Content-Length"), 10, 64); err == nil && n >= 0 {
		req.ContentLength = n
	}
	if !c.HasBody {
		req.ContentLength, req.Body = 0, http.NoBody
	}
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				s.log.Error("tunnels: handler panic", "method", c.Method, "panic", fmt.Sprint(v))
			}
			w.finish(errors.New("handler failed"))
		}
	}()
	s.h.ServeHTTP(w, req)
	w.finish(nil)
}

// adapterPrefix is the path the edge forwards every request of a tunnel
// under: /api/mcp/adapter-http/{serverId}, then the caller's sub-path.
const adapterPrefix = "/api/mcp/adapter-http/"

// localURI maps the URL the edge forwards (the public path and query as
// the caller sent them, ?k= secret included) to the request line the
// handler sees: PublicPath and the sub-path after the tunnel's prefix,
// the query without k. A URL outside the tunnel's prefix reports false.
func (s *session) localURI(raw string) (string, bool) {
	p, query, _ := strings.Cut(raw, "?")
	rest, ok := strings.CutPrefix(p, adapterPrefix)
	if !ok {
		return "", false
	}
	seg, sub, _ := strings.Cut(rest, "/")
	if id, err := url.PathUnescape(seg); err != nil || id == "" || s.serverID != "" && id != s.serverID {
		return "", false
	}
	uri := PublicPath
	if sub != "" || strings.HasSuffix(rest, "/") {
		uri += "/" + sub
	}
	if q := withoutSecret(query); q != "" {
		uri += "?" + q
	}
	return uri, true
}

// withoutSecret is a raw query without its k parameters (however encoded),
// every other part as the caller wrote it.
func withoutSecret(raw string) string {
	if raw == "" || strings.HasPrefix(raw, "k=") && !strings.ContainsAny(raw, "&;") {
		return "" // the secret alone: nearly always
	}
	var kept []string
	for part := range strings.SplitSeq(raw, "&") {
		name, _, _ := strings.Cut(part, "=")
		if part != "" && !wire.IsSecretParam(name) {
			kept = append(kept, part)
		}
	}
	return strings.Join(kept, "&")
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
