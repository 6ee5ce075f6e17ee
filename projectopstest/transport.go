package projectopstest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime/debug"
)

// errDropped is what a client sees when the server drops the connection
// (a handler panicking, notably with http.ErrAbortHandler): a transport
// error, as with a real connection closed mid-exchange.
var errDropped = fmt.Errorf("projectopstest: connection dropped by server: %w", io.ErrUnexpectedEOF)

// inProcessTransport runs the server's handler directly: no sockets, no
// serialisation beyond the HTTP bodies themselves.
type inProcessTransport struct{ s *Server }

// RoundTrip implements http.RoundTripper. The handler's context ends when
// the request's context does, when the response body is closed, or when
// the server closes. An ordinary route runs on the caller's goroutine and
// its response is handed over whole (ContentLength known). A streaming
// route runs on a goroutine the server owns; once it flushes, RoundTrip
// returns and the rest of the body streams through a pipe.
func (t *inProcessTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL == nil {
		closeRequestBody(req)
		return nil, errors.New("projectopstest: request has no URL")
	}
	ctx := req.Context()
	if err := ctx.Err(); err != nil {
		closeRequestBody(req)
		return nil, err
	}
	hctx, cancel := context.WithCancel(ctx)
	stopOnClose := context.AfterFunc(t.s.ctx, cancel) // Close cancels in-flight handlers
	rw := &responseWriter{ctx: hctx, header: http.Header{}, ready: make(chan struct{})}
	sreq := serverRequest(hctx, req)
	release := func() {
		stopOnClose()
		cancel()
		closeRequestBody(req)
	}
	if t.s.rt.streams(sreq) {
		// The handler outlives RoundTrip: give it its own header map.
		sreq.Header = req.Header.Clone()
		return t.serveAsync(req, sreq, rw, cancel, release)
	}
	defer release()
	return t.serveSync(req, sreq, rw)
}

// serveSync runs an ordinary route on the caller's goroutine.
func (t *inProcessTransport) serveSync(req, sreq *http.Request, rw *responseWriter) (*http.Response, error) {
	if !t.s.enter() {
		return nil, ErrServerClosed
	}
	rw.sync = true
	rw.serve(t.s.handler, sreq, t.s)
	t.s.inflight.Done()
	if err := req.Context().Err(); err != nil {
		return nil, err // like net/http: a cancelled request gets no response
	}
	if rw.err != nil {
		return nil, rw.err
	}
	return rw.response(req, func() {}), nil
}

// serveAsync runs a streaming route on a server-owned goroutine and returns
// as soon as the response is committed; release runs when the handler is
// done (the body is then complete or abandoned), and closing the response
// body cancels the handler.
func (t *inProcessTransport) serveAsync(req, sreq *http.Request, rw *responseWriter, cancel, release func()) (*http.Response, error) {
	started := t.s.dispatch(func() {
		defer release()
		rw.serve(t.s.handler, sreq, t.s)
	})
	if !started {
		release()
		return nil, ErrServerClosed
	}
	select {
	case <-rw.ready:
	case <-req.Context().Done():
		// The handler's context is cancelled too; it winds down on its own.
		return nil, req.Context().Err()
	}
	if rw.err != nil {
		return nil, rw.err
	}
	return rw.response(req, cancel), nil
}

// serverRequest turns an outgoing client request into the request a server
// handler would see.
func serverRequest(ctx context.Context, req *http.Request) *http.Request {
	// A shallow copy with its own URL. The header map is shared: handlers
	// only read request headers, and an ordinary route finishes before
	// RoundTrip returns (RoundTrip gives streaming routes their own copy).
	sreq := req.WithContext(ctx)
	sreq.Trailer = nil
	sreq.URL = &url.URL{Path: req.URL.Path, RawPath: req.URL.RawPath, RawQuery: req.URL.RawQuery}
	sreq.RequestURI = req.URL.RequestURI()
	sreq.Proto, sreq.ProtoMajor, sreq.ProtoMinor = "HTTP/1.1", 1, 1
	if sreq.Host == "" {
		sreq.Host = req.URL.Host
	}
	sreq.RemoteAddr = "127.0.0.1:1"
	sreq.GetBody = nil
	sreq.Close = false
	if req.Body == nil {
		sreq.Body = http.NoBody
		sreq.ContentLength = 0
	}
	return sreq
}

func closeRequestBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}

// serve runs h, recovering a panic into a dropped connection like net/http.
func (w *responseWriter) serve(h http.Handler, r *http.Request, s *Server) {
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				s.log.Error("projectopstest: handler panic", "path", r.URL.Path,
					"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			}
			w.fail()
			return
		}
		w.finish()
	}()
	h.ServeHTTP(w, r)
}
