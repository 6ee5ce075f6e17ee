package edge

import (
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// BodyDeadline gives a request with a body a read deadline of d, lifted
// once the body has been read: the deadline must not outlive the body,
// because net/http cancels a request's context when a read of its
// connection fails, and it keeps reading after the body to notice a
// departed client. Bodyless requests get none (an upgrade, whose
// connection is handed over, has no body); an Upgrade header on a request
// with a body changes nothing, or any client could stall a body forever.
//
// The handler sees a shallow copy of the request carrying the wrapped
// body, so that net/http, which decides what to do with an unread body by
// its own body's type, still finds it on the request it made. Any answer
// whose header is written before the body has been read to its end (a
// 401, the declared 1 MiB cap, a success that ignores its body alike)
// says "Connection: close": net/http would otherwise read what is left of
// the body before writing the answer, and a client that waits for the
// answer (Expect: 100-continue, which is then never granted) or sends
// slowly would wait for nothing or for d. The body is not read here to
// learn whether the rest of it has already arrived: such a read would
// grant a 100 Continue, take bytes a handler reading after WriteHeader
// needs, and, when it fails, cancel the request's context and stop
// net/http draining a chunked body before it closes.
func BodyDeadline(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			h.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		if rc.SetReadDeadline(time.Now().Add(d)) != nil {
			h.ServeHTTP(w, r)
			return
		}
		body := &deadlineBody{ReadCloser: r.Body, rc: rc}
		r2 := r.WithContext(r.Context())
		r2.Body = body
		uw := &unreadWriter{ResponseWriter: w, body: body}
		h.ServeHTTP(uw, r2)
		uw.answering() // net/http writes a 200 for a handler that wrote nothing
	})
}

// deadlineBody lifts the connection's read deadline when the body ends,
// and records that it did.
type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	done bool
	// ended is set once a read has returned io.EOF; the writer reads it,
	// maybe while a full-duplex handler's reader goroutine reads on.
	ended atomic.Bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && !b.done {
		b.done = true
		if err == io.EOF {
			b.ended.Store(true)
			_ = b.rc.SetReadDeadline(time.Time{})
		}
	}
	return n, err
}

// unreadWriter closes the connection after an answer whose header is
// written before the request's body has been read to its end.
type unreadWriter struct {
	http.ResponseWriter
	body    *deadlineBody
	written bool
}

// answering runs before the header can be written.
func (w *unreadWriter) answering() {
	if w.written {
		return
	}
	w.written = true
	// A full-duplex handler, which reads on as it answers, is no
	// exception: if it stops before the end (the relay does once its
	// stream ends, with a read deadline in the past), net/http cannot
	// drain the rest and would parse it as the next request.
	if !w.body.ended.Load() {
		w.Header().Set("Connection", "close")
	}
}

// WriteHeader implements http.ResponseWriter. An informational (1xx)
// header leaves the final one to come.
func (w *unreadWriter) WriteHeader(code int) {
	if code >= 200 {
		w.answering()
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write implements http.ResponseWriter.
func (w *unreadWriter) Write(p []byte) (int, error) {
	w.answering()
	return w.ResponseWriter.Write(p)
}

// Flush implements http.Flusher.
func (w *unreadWriter) Flush() { _ = w.FlushError() }

// FlushError is the flush http.ResponseController calls; a flush writes
// the header.
func (w *unreadWriter) FlushError() error {
	w.answering()
	return http.NewResponseController(w.ResponseWriter).Flush()
}

// SetWriteDeadline passes WriteDeadline's per-write deadline straight on,
// sparing it a ResponseController per write.
func (w *unreadWriter) SetWriteDeadline(t time.Time) error {
	if dl, ok := w.ResponseWriter.(interface{ SetWriteDeadline(time.Time) error }); ok {
		return dl.SetWriteDeadline(t)
	}
	return http.NewResponseController(w.ResponseWriter).SetWriteDeadline(t)
}

// Unwrap lets http.ResponseController reach the writer below.
func (w *unreadWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
