package projectopstest

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
)

// loopStreams tracks the loopback requests of streaming routes (a relayed
// tunnel response, an SSE GET), so Close can end those already answered
// as it starts: http.Server.Shutdown waits for every connection to go
// idle, which a stream's caller holds open never does, so without this an
// answered stream would hold Close for all of ShutdownGrace. Requests not
// yet answered keep their grace, as in process.
type loopStreams struct {
	mu      sync.Mutex
	closing bool
	open    map[*loopStream]struct{}
}

// loopStream is one loopback request of a streaming route.
type loopStream struct {
	cancel   context.CancelFunc // ends its handler's context
	answered atomic.Bool        // its response has begun
}

// wrap serves the requests of streaming routes (streams) under a context
// of their own, which Close cancels once their response has begun.
func (ls *loopStreams) wrap(h http.Handler, streams func(*http.Request) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !streams(r) {
			h.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		st := &loopStream{cancel: cancel}
		ls.mu.Lock()
		if ls.open == nil {
			ls.open = map[*loopStream]struct{}{}
		}
		ls.open[st] = struct{}{}
		ls.mu.Unlock()
		defer func() {
			ls.mu.Lock()
			delete(ls.open, st)
			ls.mu.Unlock()
			cancel()
		}()
		h.ServeHTTP(&loopStreamWriter{ResponseWriter: w, ls: ls, st: st}, r.WithContext(ctx))
	})
}

// answer records that st's response has begun; once Close has started,
// that ends it.
func (ls *loopStreams) answer(st *loopStream) {
	if st.answered.Swap(true) {
		return
	}
	ls.mu.Lock()
	closing := ls.closing
	ls.mu.Unlock()
	if closing {
		st.cancel()
	}
}

// close cancels every stream already answered, and from now on each one
// as its response begins.
func (ls *loopStreams) close() {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.closing = true
	for st := range ls.open {
		if st.answered.Load() {
			st.cancel()
		}
	}
}

// loopStreamWriter tells its loopStreams when the response begins: its
// status (not an informational one), its first write or flush.
type loopStreamWriter struct {
	http.ResponseWriter
	ls *loopStreams
	st *loopStream
}

// WriteHeader implements http.ResponseWriter.
func (w *loopStreamWriter) WriteHeader(code int) {
	w.ResponseWriter.WriteHeader(code)
	if code >= 200 {
		w.ls.answer(w.st)
	}
}

// Write implements http.ResponseWriter.
func (w *loopStreamWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	w.ls.answer(w.st)
	return n, err
}

// Flush implements http.Flusher.
func (w *loopStreamWriter) Flush() {
	_ = http.NewResponseController(w.ResponseWriter).Flush()
	w.ls.answer(w.st)
}

// Unwrap lets http.ResponseController reach the underlying writer
// (deadlines, a hijack).
func (w *loopStreamWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
