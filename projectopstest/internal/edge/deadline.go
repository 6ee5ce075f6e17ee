package edge

import (
	"io"
	"net/http"
	"strings"
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
// its own body's type, still finds it on the request it made. When an
// answer's header is written before the body has been read to its end,
// the rest of the body that has already arrived (buffered with the head)
// is read then, without waiting: if that was all of it, the connection is
// kept, as the service's Node server discards such a body and keeps it.
// Otherwise the answer (a 401, the declared 1 MiB cap, a success that
// ignores its body alike) says "Connection: close": net/http would
// otherwise read what is left of the body before writing the answer, and a
// client that waits for the answer (Expect: 100-continue, which is then
// never granted) or sends slowly would wait for nothing or for d.
func BodyDeadline(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			h.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		deadline := time.Now().Add(d)
		if rc.SetReadDeadline(deadline) != nil {
			h.ServeHTTP(w, r)
			return
		}
		body := &deadlineBody{ReadCloser: r.Body, rc: rc, deadline: deadline}
		r2 := r.WithContext(r.Context())
		r2.Body = body
		uw := &unreadWriter{ResponseWriter: w, body: body, expect: expectsContinue(r)}
		h.ServeHTTP(uw, r2)
		uw.answering() // net/http writes a 200 for a handler that wrote nothing
	})
}

// expectsContinue reports whether r asks for 100 Continue before its body:
// reading its body then grants it.
func expectsContinue(r *http.Request) bool {
	for _, v := range r.Header.Values("Expect") {
		if strings.EqualFold(strings.TrimSpace(v), "100-continue") {
			return true
		}
	}
	return false
}

// deadlineBody lifts the connection's read deadline when the body ends,
// and records that it did.
type deadlineBody struct {
	io.ReadCloser
	rc       *http.ResponseController
	deadline time.Time // the body's, restored after an arrived-only read
	done     bool
	// ended is set once a read has returned io.EOF; the writer reads it,
	// maybe while a full-duplex handler's reader goroutine reads on.
	ended atomic.Bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && !b.done {
		b.done = true
		if err == io.EOF {
			b.end()
		}
	}
	return n, err
}

// end records the body's end and lifts its deadline.
func (b *deadlineBody) end() {
	b.ended.Store(true)
	_ = b.rc.SetReadDeadline(time.Time{})
}

// discardArrived reads and drops what is left of the body if all of it has
// already arrived, and reports whether it had. A deadline in the past lets
// a read return only what net/http has buffered with the head; whatever
// that read fails with, the body's deadline is put back. (The failed read
// ends the request's context, as any failed read of the connection does;
// the answer is being written by then.)
func (b *deadlineBody) discardArrived() bool {
	if b.done {
		return false // it failed earlier (a deadline, a cap): not to be trusted
	}
	if b.rc.SetReadDeadline(time.Unix(1, 0)) != nil {
		return false
	}
	_, err := io.Copy(io.Discard, b.ReadCloser)
	if err == nil { // io.Copy's EOF
		b.done = true
		b.end()
		return true
	}
	_ = b.rc.SetReadDeadline(b.deadline)
	return false
}

// unreadWriter closes the connection after an answer whose header is
// written before the request's body has been read to its end, unless the
// rest of the body has already arrived (see BodyDeadline).
type unreadWriter struct {
	http.ResponseWriter
	body    *deadlineBody
	expect  bool // Expect: 100-continue: reading would grant it
	duplex  atomic.Bool
	written bool
}

// answering runs before the header can be written.
func (w *unreadWriter) answering() {
	if w.written {
		return
	}
	w.written = true
	switch {
	case w.body.ended.Load():
		return
	case w.duplex.Load():
		// A full-duplex handler reads on as it answers, on its own
		// goroutine (no reading here, then). If it stops before the end
		// (the relay does once its stream ends, with a read deadline in
		// the past), net/http cannot drain the rest and would parse it as
		// the next request.
	case !w.expect && w.body.discardArrived():
		return
	}
	w.Header().Set("Connection", "close")
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

// EnableFullDuplex is the one http.ResponseController calls: the handler
// reads the body while it answers, so its answer closes the connection
// only if the body has not ended by the time its header is written.
func (w *unreadWriter) EnableFullDuplex() error {
	w.duplex.Store(true)
	return http.NewResponseController(w.ResponseWriter).EnableFullDuplex()
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
