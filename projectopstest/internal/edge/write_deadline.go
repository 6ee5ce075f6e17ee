package edge

import (
	"bufio"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// WriteDeadline bounds each write of a response to d: the connection's
// write deadline is moved to d from now when the request starts, before
// every write and flush, and once the handler returns (net/http then
// flushes what it buffered). A client that stops reading fails the write
// blocked on it, and net/http closes its connection, while a stream that
// writes for hours to a client that reads is never cut. A hijacked
// connection is its new owner's: its deadlines are left alone.
func WriteDeadline(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dw := &deadlineWriter{ResponseWriter: w, d: d}
		dw.extend()
		h.ServeHTTP(dw, r)
		dw.extend()
	})
}

// deadlineWriter extends the write deadline before each write.
type deadlineWriter struct {
	http.ResponseWriter
	d        time.Duration
	hijacked atomic.Bool
}

// extend moves the write deadline; an error (a writer without deadlines,
// as in process) leaves the response unbounded, as before. net/http's own
// writer is asked directly: a ResponseController per request would be an
// allocation on every request.
func (w *deadlineWriter) extend() {
	if w.hijacked.Load() {
		return
	}
	t := time.Now().Add(w.d)
	if dl, ok := w.ResponseWriter.(interface{ SetWriteDeadline(time.Time) error }); ok {
		_ = dl.SetWriteDeadline(t)
		return
	}
	_ = http.NewResponseController(w.ResponseWriter).SetWriteDeadline(t)
}

// WriteHeader implements http.ResponseWriter.
func (w *deadlineWriter) WriteHeader(code int) {
	w.extend()
	w.ResponseWriter.WriteHeader(code)
}

// writePiece is the most one deadline covers: a large body to a client
// that reads slowly but reads is written piece by piece, each in time.
const writePiece = 64 << 10

// Write implements http.ResponseWriter.
func (w *deadlineWriter) Write(b []byte) (int, error) {
	n := 0
	for {
		w.extend()
		m, err := w.ResponseWriter.Write(b[:min(len(b), writePiece)])
		n += m
		b = b[m:]
		if err != nil || len(b) == 0 {
			return n, err
		}
	}
}

// Flush implements http.Flusher.
func (w *deadlineWriter) Flush() { _ = w.FlushError() }

// FlushError is the flush http.ResponseController calls, reporting a
// write that failed.
func (w *deadlineWriter) FlushError() error {
	w.extend()
	if f, ok := w.ResponseWriter.(interface{ FlushError() error }); ok {
		return f.FlushError()
	}
	return http.NewResponseController(w.ResponseWriter).Flush()
}

// Hijack implements http.Hijacker, and stops extending the deadline:
// net/http clears it when it hands the connection over.
func (w *deadlineWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, rw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err == nil {
		w.hijacked.Store(true)
	}
	return c, rw, err
}

// Unwrap lets http.ResponseController reach the writer below.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
