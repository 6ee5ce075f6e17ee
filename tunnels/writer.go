package tunnels

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// responseWriter sends a handler's response as messages: res at the first
// flush (or when the handler returns), the body in chunks of at most the
// edge's chunk size, res_end (or abort) when the handler returns. Nothing
// is buffered beyond one chunk. The messages of one flush are handed to
// the session's writer together, so they go out in one write.
type responseWriter struct {
	s      *session
	st     *stream
	id     uint32
	size   int             // the largest chunk, fixed for the response (0: the default)
	ctx    context.Context // the request's: a cancelled caller stops writes
	header http.Header

	status   int
	headSent bool
	buf      []byte
	err      error
	done     bool
	group    tunnelwire.Batch // messages not yet pushed; its buffer is reused
	bufs     *frameBufs       // where buf and group came from
}

// frameBufs are a response writer's message batch and chunk buffer, which
// every relayed response needs: recycled, instead of grown afresh (a dozen
// allocations per response). Only the buffers are: a handler that writes
// after it returned (a bug net/http forgives) reaches its own finished
// writer, never another request's.
type frameBufs struct {
	group tunnelwire.Batch
	buf   []byte
}

var bufPool = sync.Pool{New: func() any { return new(frameBufs) }}

// errHandlerDone fails writes made after the handler returned.
var errHandlerDone = errors.New("tunnels: write after the handler returned")

func newResponseWriter(st *stream, ctx context.Context) *responseWriter {
	b := bufPool.Get().(*frameBufs)
	return &responseWriter{s: st.s, st: st, id: st.id, size: st.chunk, ctx: ctx, header: http.Header{}, bufs: b,
		buf: b.buf[:0], group: b.group.Reset()}
}

// release hands the buffers back once the handler is done; those of an
// unusually large response are let go.
func (w *responseWriter) release() {
	b := w.bufs
	if cap(w.buf) <= tunnelwire.DefaultLimits.Chunk && cap(w.group) <= 2*tunnelwire.DefaultLimits.Chunk {
		b.buf, b.group = w.buf[:0], w.group.Reset()
		bufPool.Put(b)
	}
	w.bufs, w.buf, w.group = nil, nil, nil
	if w.err == nil {
		w.err = errHandlerDone
	}
}

// Header implements http.ResponseWriter.
func (w *responseWriter) Header() http.Header { return w.header }

// WriteHeader implements http.ResponseWriter; 1xx statuses are not relayed.
func (w *responseWriter) WriteHeader(code int) {
	if w.status != 0 || code < 200 {
		return
	}
	w.status = code
}

// Write implements http.ResponseWriter. Once the request is cancelled
// (the caller went away or the session ended) writes fail, buffered or
// not: nothing will carry them.
func (w *responseWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if !w.live() {
		return 0, w.err
	}
	n := 0
	for len(p) > 0 {
		if w.err != nil {
			return n, w.err
		}
		k := min(len(p), w.chunk()-len(w.buf))
		w.buf = append(w.buf, p[:k]...)
		p, n = p[k:], n+k
		if len(w.buf) == w.chunk() {
			w.flushBuf()
			w.push()
		}
	}
	return n, w.err
}

// chunk is the largest chunk the edge takes. It is the stream's own copy
// of the session's limit: the handler's goroutine never reads the session's.
func (w *responseWriter) chunk() int {
	if c := w.size; c > 0 {
		return c
	}
	return tunnelwire.DefaultLimits.Chunk
}

// Flush implements http.Flusher: the head and what is buffered go out now.
func (w *responseWriter) Flush() { _ = w.FlushError() }

// FlushError is Flush reporting failure (http.ResponseController uses it).
func (w *responseWriter) FlushError() error {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	w.flushBuf()
	w.push()
	return w.err
}

func (w *responseWriter) flushBuf() {
	if !w.headSent {
		w.headSent = true
		if w.live() {
			at := w.group.Len()
			h := tunnelwire.Clean(w.header)
			if w.status > 999 || !tunnelwire.ValidHeader(h) {
				// A head no HTTP edge can write (net/http refuses the
				// status, Node's setHeader the characters): the host
				// ends the stream itself rather than trust the edge to
				// say it dropped it.
				w.failHead(errHeadInvalid)
				return
			}
			if g := w.group.Res(w.id, w.status, h); g.Len()-at <= tunnelwire.MaxControl {
				w.group = g
			} else {
				// A head too large for the edge: the stream ends failed
				// (the caller gets 502) instead of waiting for a head
				// that never comes.
				w.group = g[:at]
				w.failHead(errHeadTooLarge)
				return
			}
		}
	}
	if len(w.buf) > 0 && w.err == nil && w.live() {
		w.group = w.group.Chunk(tunnelwire.ResChunk, w.id, w.buf)
		w.buf = w.buf[:0]
	}
}

// errHeadTooLarge fails writes after a response head too large to relay.
var errHeadTooLarge = errors.New("tunnels: response head too large to relay")

// errHeadInvalid fails writes after a response head no HTTP edge can write:
// a status over 999, a header name that is not a token, or a control
// character other than tab in a value.
var errHeadInvalid = errors.New("tunnels: response head has a status or header HTTP cannot carry")

// failHead aborts the stream for a head that cannot be relayed (the caller
// gets 502) and fails the handler's writes with err.
func (w *responseWriter) failHead(err error) {
	w.err = err
	w.group = w.group.Abort(w.id, tunnelwire.AbortUpstreamError, strings.TrimPrefix(err.Error(), "tunnels: "))
	w.abortStream()
}

// abortStream sends the abort queued for a stream the host gives up on,
// and lets go of the stream as the edge does at that abort: it stops
// counting, and its body is dropped (the chunks and req_end still in
// flight find no stream), so a read of it fails instead of waiting for
// them. The request is cancelled only once the abort is out: live()
// would drop it otherwise.
func (w *responseWriter) abortStream() {
	w.s.settle(w.st)
	w.st.body.Abort(w.err)
	w.push()
	w.st.cancel()
}

// push hands the queued messages to the session's writer in one Send. The
// request's context is checked once more: a cancelled caller stops writes.
func (w *responseWriter) push() {
	if w.group.Empty() || !w.live() {
		return
	}
	if err := w.s.w.Send(w.group); err != nil && w.err == nil {
		w.err = err
	}
	w.group = w.group.Reset() // Send is done with the batch when it returns
}

// finish ends the stream after the handler returned; failed cuts the body
// short (the public caller sees its connection dropped).
func (w *responseWriter) finish(failed error) {
	if w.done {
		return
	}
	w.done = true
	w.st.handlerDone()
	if failed == nil {
		if w.status == 0 {
			w.WriteHeader(http.StatusOK)
		}
		w.flushBuf()
	}
	switch {
	case !w.live():
	case failed != nil: // a head that failed has sent its abort: !live() above
		w.group = w.group.Abort(w.id, tunnelwire.AbortUpstreamError, failed.Error())
	case w.err == nil:
		w.group = w.group.End(tunnelwire.ResEnd, w.id)
	}
	w.s.settle(w.st)
	w.push()
}

// answer is a short plain-text response of the host's own, made without
// reaching the handler.
func (w *responseWriter) answer(status int, msg string) {
	w.header.Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, msg)
	w.finish(nil)
}

// live reports whether messages may still be queued: once the request is
// cancelled nothing more is written for it, and w.err says why. Messages
// are written with the session's connection: a write whose context ends
// would tear down the whole connection.
func (w *responseWriter) live() bool {
	if err := w.ctx.Err(); err != nil {
		if w.err == nil {
			w.err = err
		}
		return false
	}
	return true
}
