// Package inproc is the double's in-process transport: an
// http.RoundTripper that runs the server's handler directly, with no
// sockets, as net/http would (streaming routes, hijacked upgrades, dropped
// connections on a handler panic).
package inproc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"

	"github.com/projectops/projectops-go/internal/wire"
)

// errDropped is what a client sees when the server drops the connection
// (a handler panicking, notably with http.ErrAbortHandler): a transport
// error, as with a real connection closed mid-exchange.
var errDropped = fmt.Errorf("projectopstest: connection dropped by server: %w", io.ErrUnexpectedEOF)

// errCut marks a request the server's closing cut before it was answered
// (see finish): the transport answers it with its Closed error.
var errCut = errors.New("projectopstest: request cut by the server closing")

// Host is the server the transport runs requests on.
type Host interface {
	// Handler serves every request.
	Handler() http.Handler
	// Context ends when the server closes; in-flight handlers are
	// cancelled then.
	Context() context.Context
	// Streams reports whether r goes to a streaming route, which runs on
	// its own goroutine and may flush or hijack.
	Streams(r *http.Request) bool
	// Enter counts an in-flight request (false once the server is
	// closed); Leave ends it. A streaming request leaves once its
	// response is committed (its first flush, a hijack, or its handler
	// returning), or when its handler returns without one: the server's
	// Close waits for requests to be answered, not for the streams or
	// connections handed to their callers.
	Enter() bool
	Leave()
	// Closing reports whether the server's Close has begun. A streaming
	// request answered from then on was waited for as unanswered: it
	// leaves when its handler returns, so it keeps the rest of the grace
	// rather than being cut at its head.
	Closing() bool
	// Dispatch runs f on a goroutine the server owns (false once closed).
	Dispatch(f func()) bool
	// Logger receives handler panics.
	Logger() *slog.Logger
}

// Transport runs a Host's handler directly: no sockets, no serialisation
// beyond the HTTP bodies themselves.
type Transport struct {
	Host Host
	// Closed is the error a request gets once the server is closed, and
	// one its closing cut before it was answered (a handler that returned
	// without writing once the Host's context had ended).
	Closed error
}

// failure is the error RoundTrip returns for a response that failed
// before it was committed.
func (t *Transport) failure(err error) error {
	if err == errCut && t.Closed != nil {
		return t.Closed
	}
	return err
}

// InProcess marks t as serving in the caller's process (wire.InProcess):
// the SDK calls it without an http.Client in between.
func (t *Transport) InProcess(wire.InProcessMark) {}

var _ wire.InProcess = (*Transport)(nil)

// RoundTrip implements http.RoundTripper. The handler's context ends when
// the request's context does, when the response body is closed, or when
// the server closes. An ordinary route runs on the caller's goroutine and
// its response is handed over whole (ContentLength known). A streaming
// route runs on a goroutine the server owns; once it flushes, RoundTrip
// returns and the rest of the body streams through a pipe.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL == nil {
		closeRequestBody(req)
		return nil, errors.New("projectopstest: request has no URL")
	}
	ctx := req.Context()
	if err := ctx.Err(); err != nil {
		closeRequestBody(req)
		return nil, err
	}
	// Room for the headers the double sets, so the map is made once.
	rw := &responseWriter{header: make(http.Header, 12), head: req.Method == http.MethodHead}
	// The handler's context is part of the writer's allocation; the
	// server's closing cancels it too.
	hctx := &rw.hctx
	hctx.Context, hctx.host = ctx, t.Host.Context()
	sreq := serverRequest(hctx, req, &rw.url)
	if t.Host.Streams(sreq) {
		// The handler outlives RoundTrip: give it its own header map.
		sreq.Header = sreq.Header.Clone()
		rw.ready = make(chan struct{})
		return t.serveAsync(req, sreq, rw, hctx.cancel, func() { release(hctx, req) })
	}
	defer release(hctx, req)
	return t.serveSync(req, sreq, rw)
}

// release ends a request once its handler is done.
func release(hctx *handlerCtx, req *http.Request) {
	hctx.release()
	closeRequestBody(req)
}

// serveSync runs an ordinary route on the caller's goroutine.
func (t *Transport) serveSync(req, sreq *http.Request, rw *responseWriter) (*http.Response, error) {
	if !t.Host.Enter() {
		return nil, t.Closed
	}
	rw.sync = true
	func() {
		defer t.Host.Leave() // also when the handler ends its goroutine (t.Fatal in a hook)
		rw.serve(t.Host.Handler(), sreq, t.Host.Logger())
	}()
	if err := req.Context().Err(); err != nil {
		return nil, err // like net/http: a cancelled request gets no response
	}
	if rw.err != nil {
		return nil, t.failure(rw.err)
	}
	return rw.response(req, func() {}), nil
}

// serveAsync runs a streaming route on a server-owned goroutine and returns
// as soon as the response is committed; release runs when the handler is
// done (the body is then complete or abandoned), and closing the response
// body cancels the handler.
func (t *Transport) serveAsync(req, sreq *http.Request, rw *responseWriter, cancel, release func()) (*http.Response, error) {
	if !t.Host.Enter() {
		release()
		return nil, t.Closed
	}
	rw.host = t.Host
	started := t.Host.Dispatch(func() {
		defer release()
		defer rw.leave()
		rw.serve(t.Host.Handler(), sreq, t.Host.Logger())
	})
	if !started {
		rw.leave()
		release()
		return nil, t.Closed
	}
	select {
	case <-rw.ready:
		// Both may be ready at once: a handler whose caller went away may
		// return without writing, which commits an empty 200 nobody
		// asked for. A cancelled request gets no response, as in
		// serveSync.
		if err := req.Context().Err(); err != nil {
			rw.abandon()
			return nil, err
		}
	case <-req.Context().Done():
		// The handler's context is cancelled too; it winds down on its
		// own, except on a connection it hijacked, which is closed.
		rw.abandon()
		return nil, req.Context().Err()
	}
	if rw.err != nil {
		return nil, t.failure(rw.err)
	}
	return rw.response(req, cancel), nil
}

// serverRequest turns an outgoing client request into the request a server
// handler would see, with u (the writer's, saving an allocation) as its URL.
func serverRequest(ctx context.Context, req *http.Request, u *url.URL) *http.Request {
	// A shallow copy with its own URL. The header map is shared: handlers
	// only read request headers, and an ordinary route finishes before
	// RoundTrip returns (RoundTrip gives streaming routes their own copy).
	sreq := req.WithContext(ctx)
	// Names as net/http's server reads them: a client that set
	// "authorization" in the map directly is heard as over a socket.
	sreq.Header = wire.CanonicalHeader(req.Header)
	sreq.Trailer = nil
	*u = url.URL{Path: req.URL.Path, RawPath: req.URL.RawPath, RawQuery: req.URL.RawQuery}
	sreq.URL = u
	sreq.RequestURI = req.URL.RequestURI()
	sreq.Proto, sreq.ProtoMajor, sreq.ProtoMinor = "HTTP/1.1", 1, 1
	if sreq.Host == "" {
		sreq.Host = req.URL.Host
	}
	sreq.RemoteAddr = "127.0.0.1:1"
	sreq.GetBody = nil
	sreq.Close = false
	if sreq.Method == "" { // a client request's "" means GET
		sreq.Method = http.MethodGet
	}
	switch {
	case req.Body == nil:
		sreq.Body = http.NoBody
		sreq.ContentLength = 0
	case req.ContentLength == 0 && req.Body != http.NoBody:
		// A client request's 0 with a body means "unknown" (net/http
		// sends it chunked): a server sees -1, and reads the body.
		sreq.ContentLength = -1
	}
	return sreq
}

func closeRequestBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}

// serve runs h, recovering a panic into a dropped connection like net/http.
func (w *responseWriter) serve(h http.Handler, r *http.Request, log *slog.Logger) {
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				log.Error("projectopstest: handler panic", "path", r.URL.Path,
					"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			}
			w.fail()
			return
		}
		w.finish()
	}()
	h.ServeHTTP(w, r)
}
