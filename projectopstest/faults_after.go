package projectopstest

import (
	"bytes"
	"net/http"
)

// heldAnswer keeps a route's answer back so that an AfterRoute fault can
// delay, lose or replace it after the route has run.
type heldAnswer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

// Header implements http.ResponseWriter. It is the route's own: headers a
// replaced answer set are not sent.
func (h *heldAnswer) Header() http.Header { return h.header }

// WriteHeader implements http.ResponseWriter, keeping the first final status.
func (h *heldAnswer) WriteHeader(code int) {
	if h.status == 0 && code >= 200 {
		h.status = code
	}
}

// Write implements http.ResponseWriter; a write without a status is a 200.
func (h *heldAnswer) Write(b []byte) (int, error) {
	if h.status == 0 {
		h.status = http.StatusOK
	}
	return h.body.Write(b)
}

// Flush implements http.Flusher: the answer is held, nothing goes out yet.
func (h *heldAnswer) Flush() {}

// faultAfterRoute runs serve (the route) on a held answer, then applies f
// to that answer: Latency, then Drop, then f's error response, else the
// route's own answer.
func (s *Server) faultAfterRoute(w http.ResponseWriter, r *http.Request, f Fault, serve http.HandlerFunc) {
	h := &heldAnswer{header: http.Header{}}
	serve(h, r)
	if f.Latency > 0 && (!sleepCtx(r.Context(), f.Latency) || r.Context().Err() != nil) {
		panic(http.ErrAbortHandler) // the client is gone: nobody reads the answer
	}
	if f.Drop {
		panic(http.ErrAbortHandler)
	}
	if writeFault(w, f) {
		return
	}
	for k, v := range h.header {
		w.Header()[k] = v
	}
	w.WriteHeader(max(h.status, http.StatusOK))
	_, _ = w.Write(h.body.Bytes())
}
