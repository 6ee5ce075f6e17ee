package inproc

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
)

// responseWriter is the in-process transport's http.ResponseWriter. It
// buffers until the handler flushes or returns ("commits"); a response
// committed by a flush streams the rest through an io.Pipe, so a handler
// that writes progressively is read progressively.
type responseWriter struct {
	sync   bool // running on the caller's goroutine: never stream
	head   bool // a HEAD request's: what the handler writes once committed is dropped, as net/http's server drops it
	header http.Header
	ready  chan struct{} // closed at commit; nil on the caller's goroutine, where nobody waits

	mu        sync.Mutex
	status    int
	limit     int64 // the Content-Length declared when the status was set, -1 for none
	badLength bool  // the Content-Length declared then was not a length (and was dropped)
	written   int64 // bytes the handler asked to write, as net/http counts them
	buf       bytes.Buffer
	committed bool
	sent      http.Header // the header sent: fixed when the handler reads its header after the status is set, else at commit
	// calledHeader: the handler read its header before the status was
	// set, and may have kept the map. at then holds the map's entries as
	// they were at the status (atKeys of them; -1 when they did not fit,
	// and sent was cloned then), to tell whether the handler changed it
	// since; only then is a header rebuilt from them.
	calledHeader bool
	atKeys       int
	at           [12]headerEntry
	pr           *io.PipeReader // streaming only
	pw           *io.PipeWriter
	err          error        // failure before commit, returned by RoundTrip
	conn         net.Conn     // the client's end of a hijacked connection (hijack.go)
	gone         bool         // the client gave up before the response was committed
	body         bufferedBody // a complete response's body, part of this allocation
	hctx         handlerCtx   // the handler's context, part of this allocation too
	host         Host         // a streaming request's, until it leaves (leave)
	url          url.URL      // the handler's request URL, likewise
}

// Header implements http.ResponseWriter. As with net/http's server, what
// the handler changes after the status is set is not sent: reading the
// header then takes a copy of the one set with the status, and a map read
// before the status and kept (a middleware's habit) is, if changed since,
// set aside for the header as it was then. (net/http copies such a map at
// the status, on nearly every response; here the entries are noted
// without a copy, and compared at commit. A value changed in place,
// h["K"][0] = v, goes unnoticed.)
func (w *responseWriter) Header() http.Header {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.status == 0 {
		w.calledHeader = true
	} else if !w.committed && w.sent == nil {
		w.sent = w.headerAtStatusLocked(true)
	}
	return w.header
}

// headerEntry is one entry of the header map at the status.
type headerEntry struct {
	key  string
	vals []string
}

// noteHeaderLocked notes the handler's header map as it is when the status
// is set, if the handler may have kept it; when it has more entries than
// fit, it is copied, as net/http's server does.
func (w *responseWriter) noteHeaderLocked() {
	if !w.calledHeader {
		return
	}
	if len(w.header) > len(w.at) {
		w.sent, w.atKeys = w.header.Clone(), -1
		return
	}
	n := 0
	for k, v := range w.header {
		w.at[n] = headerEntry{k, v}
		n++
	}
	w.atKeys = n
}

// headerAtStatusLocked is the header as it was when the status was set: the
// handler's map if unchanged since (a copy of it if own, as the handler
// goes on with it), else one rebuilt from the entries noted then.
func (w *responseWriter) headerAtStatusLocked(own bool) http.Header {
	if w.calledHeader && !w.unchangedLocked() {
		h := make(http.Header, w.atKeys)
		for _, e := range w.at[:w.atKeys] {
			if own { // the handler goes on with its slices: the client gets its own
				e.vals = append([]string(nil), e.vals...)
			}
			h[e.key] = e.vals
		}
		return h
	}
	if own {
		return w.header.Clone()
	}
	return w.header
}

// unchangedLocked reports whether the handler's map has the entries noted
// at the status: the same keys, each with the same value slice (Set and
// Del replace or remove it; Add lengthens it).
func (w *responseWriter) unchangedLocked() bool {
	if len(w.header) != w.atKeys {
		return false
	}
	for _, e := range w.at[:w.atKeys] {
		v, ok := w.header[e.key]
		if !ok || len(v) != len(e.vals) || len(v) > 0 && &v[0] != &e.vals[0] {
			return false
		}
	}
	return true
}

// WriteHeader implements http.ResponseWriter. Informational statuses and
// repeated calls are ignored.
func (w *responseWriter) WriteHeader(code int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if (code >= 200 || code == http.StatusSwitchingProtocols) && w.status == 0 && !w.committed {
		w.setStatusLocked(code)
	}
}

// setStatusLocked sets the status and, as net/http's server does at that
// point, takes the Content-Length the handler declared as the most it may
// write, or drops one that is not a length (the response then has none).
func (w *responseWriter) setStatusLocked(code int) {
	w.status = code
	w.limit = declaredLength(w.header)
	if w.limit < 0 && len(w.header["Content-Length"]) == 1 {
		delete(w.header, "Content-Length")
		w.badLength = true
	}
	w.noteHeaderLocked()
}

// bodyAllowed reports whether a response with this status has a body
// (not 1xx, 204 or 304), as net/http's server and client decide.
func bodyAllowed(status int) bool {
	return status >= 200 && status != http.StatusNoContent && status != http.StatusNotModified
}

// Write implements http.ResponseWriter. After a flush it blocks until the
// client reads, like a socket with no buffer. As with net/http's server, a
// 204 or 304 takes no body (http.ErrBodyNotAllowed), and a write that would
// go past a declared Content-Length is refused whole (http.ErrContentLength).
func (w *responseWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	if w.conn != nil {
		w.mu.Unlock()
		return 0, http.ErrHijacked
	}
	if w.status == 0 {
		w.setStatusLocked(http.StatusOK)
	}
	if len(p) == 0 {
		w.mu.Unlock()
		return 0, nil
	}
	if !bodyAllowed(w.status) {
		w.mu.Unlock()
		return 0, http.ErrBodyNotAllowed
	}
	w.written += int64(len(p)) // a refused write counts too, as in net/http
	if w.limit >= 0 && w.written > w.limit {
		w.mu.Unlock()
		return 0, http.ErrContentLength
	}
	if !w.committed {
		defer w.mu.Unlock()
		if w.buf.Cap() == 0 {
			// Most handlers write their body at once: one exact
			// allocation. (A 512-byte buffer inside the writer, zeroed on
			// every request whether the body fit or not, measured slower.)
			w.buf = *bytes.NewBuffer(make([]byte, 0, len(p)))
		}
		return w.buf.Write(p)
	}
	pw := w.pw
	w.mu.Unlock()
	if w.head { // nobody reads a HEAD answer's pipe
		return len(p), nil
	}
	if pw == nil {
		return 0, io.ErrClosedPipe
	}
	return pw.Write(p)
}

// Flush implements http.Flusher: it commits the response and sends what was
// buffered. On the caller's goroutine (a route not registered as streaming)
// nobody could read a pipe yet, so Flush keeps buffering.
func (w *responseWriter) Flush() {
	if w.sync {
		return
	}
	w.mu.Lock()
	if !w.committed {
		w.commitLocked(true)
	}
	pending := bytes.Clone(w.buf.Bytes())
	w.buf.Reset()
	pw := w.pw
	w.mu.Unlock()
	if len(pending) > 0 && pw != nil && !w.head {
		_, _ = pw.Write(pending)
	}
}

func (w *responseWriter) commitLocked(stream bool) {
	w.committed = true
	// The request is answered: the server's Close gives its grace to
	// requests that have not been, not to an open stream (an SSE GET
	// held by its caller), which it ends by cancelling. One answered
	// while Close waits keeps counting until its handler returns.
	if w.host != nil && !w.host.Closing() {
		w.leaveLocked()
	}
	if w.status == 0 {
		w.setStatusLocked(http.StatusOK)
	}
	if w.sent == nil {
		// The handler did not read its header after setting the status.
		// A streaming handler goes on with its map, which it may have
		// kept: the header sent is a copy.
		w.sent = w.headerAtStatusLocked(stream)
	}
	if !bodyAllowed(w.status) {
		// net/http's server does not send these for a response with no
		// body (nor, for a 304, a Content-Type).
		delete(w.sent, "Content-Length")
		delete(w.sent, "Transfer-Encoding")
		if w.status == http.StatusNotModified {
			delete(w.sent, "Content-Type")
		}
	}
	if !stream {
		w.signalReady()
		return
	}
	// A Content-Length the handler set with the status stays, as
	// net/http's server sends it: the client reads that many bytes.
	w.pr, w.pw = io.Pipe()
	// Unblock a handler writing to a client that went away.
	context.AfterFunc(&w.hctx, func() { w.abort(w.hctx.Err()) })
	w.signalReady()
}

// finish ends a handler that returned normally. One that returns having
// written nothing (no status, no body) once the server has closed was cut
// by the closing, not answering (the relay's, whose tunnel host had not
// answered yet): its caller gets errCut, as a caller over loopback finds
// its connection closed, not the empty 200 net/http would send for it.
func (w *responseWriter) finish() {
	w.mu.Lock()
	if !w.committed {
		if w.status == 0 && w.hctx.host.Err() != nil {
			w.committed = true
			w.err = errCut
			w.leaveLocked()
			w.signalReady()
			w.mu.Unlock()
			return
		}
		w.commitLocked(false)
		w.mu.Unlock()
		return
	}
	pw := w.pw
	w.mu.Unlock()
	if pw != nil { // nil once hijacked: the connection is the handler's
		_ = pw.Close()
	}
}

// fail ends a handler that panicked: the connection is dropped.
func (w *responseWriter) fail() {
	w.mu.Lock()
	if !w.committed {
		w.committed = true
		w.err = errDropped
		w.signalReady()
		w.mu.Unlock()
		return
	}
	pw := w.pw
	w.mu.Unlock()
	if pw != nil {
		_ = pw.CloseWithError(errDropped)
	}
}

// abort is called when a streaming handler's context ends. It unblocks a
// handler whose client is gone; after finish it changes nothing, because a
// pipe keeps the first close error (EOF).
func (w *responseWriter) abort(err error) { _ = w.pw.CloseWithError(err) }

// response builds the client's *http.Response once committed.
func (w *responseWriter) response(req *http.Request, cancel func()) *http.Response {
	resp := &http.Response{
		Status:     statusLine(w.status),
		StatusCode: w.status,
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        w.sent,
		Request:       req,
		ContentLength: -1,
	}
	switch {
	case w.conn != nil:
		resp.Body = w.conn // a 101 response's body is the connection
	case w.pr != nil:
		// The client reads the declared length and no more; a pipe that
		// ends short of it is a body cut off (io.ErrUnexpectedEOF).
		resp.ContentLength = declaredLength(w.sent)
		if !bodyAllowed(w.status) {
			resp.ContentLength = 0
		}
		resp.Body = &streamBody{ctx: req.Context(), pr: w.pr, cancel: cancel, remain: resp.ContentLength}
	default:
		b := w.buf.Bytes()
		resp.ContentLength = int64(len(b))
		if w.badLength {
			// net/http's server sends it chunked: no length is known.
			resp.ContentLength = -1
		} else if _, ok := w.sent["Content-Length"]; !ok && bodyAllowed(w.status) && !w.head {
			// What net/http's server adds to a complete body it was not
			// told the length of.
			w.sent.Set("Content-Length", strconv.Itoa(len(b)))
		}
		if n := w.limit; n > resp.ContentLength && bodyAllowed(w.status) && !w.head {
			// The handler declared more than it wrote: the client is
			// told the declared length and its read is cut short.
			resp.ContentLength = n
			resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(b), shortBody{}))
			break
		}
		w.body.Reset(b)
		w.body.all = b
		resp.Body = &w.body
	}
	if req.Method == http.MethodHead {
		// A HEAD answer's length is the one the handler declared (or,
		// from a handler that wrote the body, its length, as net/http's
		// server counts it); there is no body to read.
		if n := declaredLength(w.sent); n >= 0 || w.pr != nil || resp.ContentLength == 0 {
			resp.ContentLength = n
		} else if w.sent.Get("Content-Length") == "" {
			w.sent.Set("Content-Length", strconv.FormatInt(resp.ContentLength, 10))
		}
		resp.Body = http.NoBody
	}
	return resp
}

// declaredLength is the handler's Content-Length, or -1 when it set none
// (or one that is not a length).
func declaredLength(h http.Header) int64 {
	v := h["Content-Length"]
	if len(v) != 1 {
		return -1
	}
	n, err := strconv.ParseInt(v[0], 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// signalReady tells a waiting RoundTrip the response is committed.
func (w *responseWriter) signalReady() {
	if w.ready != nil {
		close(w.ready)
	}
}

// statusLine is http.Response.Status for code; the common ones are
// constants, saving an allocation per response.
func statusLine(code int) string {
	switch code {
	case http.StatusOK:
		return "200 OK"
	case http.StatusCreated:
		return "201 Created"
	case http.StatusAccepted:
		return "202 Accepted"
	}
	return strconv.Itoa(code) + " " + http.StatusText(code)
}

// bufferedBody is a complete response body.
type bufferedBody struct {
	bytes.Reader
	all []byte
}

// TakeBytes returns the unread bytes without a copy and leaves the body at
// its end: the SDK decodes a body it knows is whole where it lies.
func (b *bufferedBody) TakeBytes() []byte {
	rest := b.all[b.Size()-int64(b.Len()):]
	b.all = nil
	b.Reset(nil)
	return rest
}

// Close implements io.Closer; there is nothing to release.
func (*bufferedBody) Close() error { return nil }

// streamBody is a streaming response body; closing it tells the handler the
// client went away. Reads fail once the request's context is done, as with
// net/http, even if the handler happened to finish first.
type streamBody struct {
	ctx    context.Context
	pr     *io.PipeReader
	cancel func()
	remain int64 // bytes of a declared length still to come; -1 for none declared
}

// Read implements io.Reader.
func (b *streamBody) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	if b.remain < 0 {
		return b.pr.Read(p)
	}
	if b.remain == 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > b.remain {
		p = p[:b.remain]
	}
	n, err := b.pr.Read(p)
	b.remain -= int64(n)
	if err == io.EOF && b.remain > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// shortBody ends a body that stopped short of its declared length.
type shortBody struct{}

func (shortBody) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

// Close implements io.Closer: the handler sees its context cancelled.
func (b *streamBody) Close() error {
	_ = b.pr.Close()
	b.cancel()
	return nil
}
