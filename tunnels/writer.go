package tunnels

import (
	"context"
	"errors"
	"net/http"
	"sync"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// responseWriter sends a handler's response as frames: the head at the
// first flush (or when the handler returns), the body in chunks of at most
// MaxChunk. Nothing is buffered beyond one chunk. The frames of one flush
// (head, chunk and, when the handler is done, end) are handed to the
// session's writer together, so they can travel as one message.
type responseWriter struct {
	s      *session
	id     uint32
	ctx    context.Context // the request's: a cancelled caller stops writes
	header http.Header

	status   int
	headSent bool
	buf      []byte
	err      error
	done     bool
	group    tunnelwire.Group    // frames not yet pushed; its buffer is reused
	bufs     *frameBufs          // where buf and group came from
	credits  *tunnelwire.Credits // the stream's window when the relay keeps to one; nil otherwise
}

// frameBufs are a response writer's frame group and chunk buffer, which
// every relayed response needs: recycled, instead of grown afresh (a dozen
// allocations per response). Only the buffers are: a handler that writes
// after it returned (a bug net/http forgives) reaches its own finished
// writer, never another request's.
type frameBufs struct {
	group tunnelwire.Group
	buf   []byte
}

var bufPool = sync.Pool{New: func() any { return new(frameBufs) }}

// errHandlerDone fails writes made after the handler returned.
var errHandlerDone = errors.New("tunnels: write after the handler returned")

func newResponseWriter(s *session, id uint32, ctx context.Context) *responseWriter {
	b := bufPool.Get().(*frameBufs)
	return &responseWriter{s: s, id: id, ctx: ctx, header: http.Header{}, bufs: b,
		buf: b.buf[:0], group: b.group.Reset()}
}

// release hands the buffers back once the handler is done; those of an
// unusually large response are let go.
func (w *responseWriter) release() {
	b := w.bufs
	if cap(w.buf) <= tunnelwire.MaxChunk && cap(w.group) <= 2*tunnelwire.MaxMessage {
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
		k := min(len(p), tunnelwire.MaxChunk-len(w.buf))
		w.buf = append(w.buf, p[:k]...)
		p, n = p[k:], n+k
		if len(w.buf) == tunnelwire.MaxChunk {
			w.flushBuf()
			w.push()
		}
	}
	return n, w.err
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
			g, err := w.group.AppendHead(tunnelwire.Response, w.id,
				&tunnelwire.Head{Status: w.status, Header: tunnelwire.Clean(w.header)})
			if err != nil {
				// A head too large for a frame: the stream ends failed (the
				// caller gets 502) instead of waiting for a head that never
				// comes.
				w.err = err
				w.group = w.group.AppendEnd(w.id, errors.New("response head too large to relay"))
				w.push()
				return
			}
			w.group = g
		}
	}
	if len(w.buf) > 0 && w.err == nil && w.live() {
		if w.credits != nil && !w.credits.TryAcquire() {
			// A caller that reads slowly holds up this handler only:
			// what was queued goes first, then the chunk waits for room.
			w.push()
			if err := w.credits.Acquire(w.ctx); err != nil {
				w.err = err
				return
			}
		}
		w.group = w.group.Append(tunnelwire.Data, w.id, w.buf)
		w.buf = w.buf[:0]
	}
}

// push hands the queued frames to the session's writer in one Send. The
// request's context is checked once more: a cancelled caller stops writes.
func (w *responseWriter) push() {
	if w.group.Empty() || !w.live() {
		return
	}
	if err := w.s.w.Send(w.group); err != nil && w.err == nil {
		w.err = err
	}
	w.group = w.group.Reset() // Send is done with the group when it returns
}

// finish ends the stream after the handler returned; failed cuts the body
// short (the public caller sees its connection dropped).
func (w *responseWriter) finish(failed error) {
	if w.done {
		return
	}
	w.done = true
	if failed == nil {
		if w.status == 0 {
			w.WriteHeader(http.StatusOK)
		}
		w.flushBuf()
	}
	if (w.err == nil || failed != nil) && w.live() {
		w.group = w.group.AppendEnd(w.id, failed)
	}
	w.push()
}

// live reports whether frames may still be queued: once the request is
// cancelled nothing more is written for it, and w.err says why. Frames
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
