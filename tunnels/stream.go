package tunnels

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// stream is one relayed request being served.
type stream struct {
	s     *session
	id    uint32
	chunk int                     // the largest response chunk, the session's when the req arrived
	stop  context.CancelCauseFunc // with errStreamEnded: see cancel
	body  tunnelwire.Body         // by value: one allocation less per request

	// counted: the stream is counted in handlers.running. Set when it is
	// taken in; then read and cleared by whoever ends it (its handler's
	// goroutine, or the reader for one that never started).
	counted bool

	ctx context.Context     // the request's, until its handler starts
	req *tunnelwire.Control // the req message, until its handler starts
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
	// Made before locking, and let go on a refusal (rare): the lock is
	// held no longer than the count takes.
	ctx, stop := context.WithCancelCause(s.reqCtx)
	st := &stream{s: s, id: c.ID, chunk: s.limits.Chunk, stop: stop, ctx: ctx, req: c}
	if !c.HasBody {
		st.body.Finish(nil) // no chunks and no req_end follow
	}
	wait := c.HasBody && s.holdsReads
	s.mu.Lock()
	if old := s.streams[c.ID]; old != nil {
		// A reused id: the edge gave up on the old stream. Its handler,
		// if it started, is cancelled and its body read fails.
		s.retireLocked(old, context.Canceled)
	}
	if len(s.streams) >= s.limits.MaxInflight || s.handlers.running.Load() >= int64(runningPerInflight*s.limits.MaxInflight) {
		// Past the edge's own count (each stream holds up to MaxReqBody
		// of queued body), or past the handlers the host runs at once
		// (those the edge forgot but that ignore their context): refused,
		// as the edge itself refuses a caller past its limit.
		s.mu.Unlock()
		st.cancel()
		_ = s.w.Send(tunnelwire.Batch(nil).Abort(c.ID, tunnelwire.AbortOverloaded, ""))
		return
	}
	s.handlers.running.Add(1)
	st.counted = true
	s.streams[c.ID] = st
	s.served = true
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
	s.handlers.wg.Add(1)
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

// settle lets go of a stream whose response is about to end, before its
// last message goes out: the edge may send a new request as soon as it
// reads it, and the stream no longer counts against MaxInflight.
func (s *session) settle(st *stream) {
	s.mu.Lock()
	if s.streams[st.id] == st {
		delete(s.streams, st.id)
	}
	s.mu.Unlock()
}

// retireLocked lets go of a stream the edge no longer counts (it aborted
// it or reused its id, or the host aborted it too_large), called with
// s.mu held: the stream stops counting against MaxInflight, its request
// is cancelled and its queued body dropped at once (a handler reading it
// gets err), so the edge's input held stays bounded by the streams it
// counts. A handler that ignores its context runs on, counted as running.
func (s *session) retireLocked(st *stream, err error) {
	delete(s.streams, st.id)
	st.cancel()
	st.body.Abort(err)
	if s.unpendLocked(st) { // never started: nobody else lets go of it
		st.close()
	}
}

// close ends the stream's request and its body, and stops counting its
// handler as running: once the handler has returned, or for a stream
// whose handler will never start.
func (st *stream) close() {
	st.cancel()
	_ = st.body.Close()
	st.handlerDone()
}

// handlerDone stops counting the stream's handler as running, once: when
// it has returned, before its last message goes out, so that the edge's
// next req never meets a finished handler still counted.
func (st *stream) handlerDone() {
	if st.counted {
		st.counted = false
		st.s.handlers.running.Add(-1)
	}
}

// cancel ends the stream's request context (a method, not a closure: one
// allocation less per request).
func (st *stream) cancel() { st.stop(errStreamEnded) }

// run serves the stream's request, then lets go of the stream.
func (st *stream) run(ctx context.Context, c *tunnelwire.Control) {
	s := st.s
	defer s.handlers.wg.Done()
	defer func() {
		st.close() // counted no more if the response ended: see handlerDone
		s.settle(st)
	}()
	s.serve(ctx, c, st)
}

func (s *session) serve(ctx context.Context, c *tunnelwire.Control, st *stream) {
	w := newResponseWriter(st, ctx)
	defer w.release()
	if c.NotBytes || !tunnelwire.ValidReq(c.Method, c.URL, c.Header) {
		// No HTTP request carries a character above U+00FF (no byte
		// stands for it), a method or header name that is not a token, a
		// control character but tab in a header value, or a space or
		// control character in its target: the service's agent (Node's
		// http.request) refuses to send one, net/http's server never
		// hands a handler one, so it is no request to serve.
		w.finish(errors.New("request is not an HTTP message"))
		return
	}
	uri, ok := s.localURI(c.URL)
	if !ok {
		// The edge keeps requests to the tunnel's path; one outside it
		// never reaches the handler.
		w.answer(http.StatusNotFound, "tunnels: only the tunnel's path is served\n")
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
		req.Header["Referer"][i] = redactReferer(v, s.secret)
	}
	req.RemoteAddr = "tunnel"
	if !setHostAndLength(req, c.HasBody) {
		// A coding the edge did not undo ("gzip, chunked"): as from
		// net/http's server, the handler never sees a body it could not
		// tell is coded.
		w.answer(http.StatusNotImplemented, "tunnels: unsupported transfer encoding\n")
		return
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
