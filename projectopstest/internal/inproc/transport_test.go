package inproc

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// host is a minimal Host: one handler, streaming by path prefix.
type host struct {
	h      http.Handler
	ctx    context.Context
	closed bool
	wg     sync.WaitGroup
}

func (h *host) Handler() http.Handler        { return h.h }
func (h *host) Context() context.Context     { return h.ctx }
func (h *host) Streams(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/stream") }
func (h *host) Enter() bool                  { return !h.closed }
func (h *host) Leave()                       {}
func (h *host) Closing() bool                { return h.closed }
func (h *host) Logger() *slog.Logger         { return slog.New(slog.DiscardHandler) }
func (h *host) Dispatch(f func()) bool {
	if h.closed {
		return false
	}
	h.wg.Add(1)
	go func() { defer h.wg.Done(); f() }()
	return true
}

var errClosed = errors.New("closed")

func get(t *testing.T, tr *Transport, path string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://double.test"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr.RoundTrip(req)
}

func TestRoundTrip(t *testing.T) {
	h := &host{ctx: t.Context(), h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			w.WriteHeader(http.StatusCreated)
			_, _ = io.WriteString(w, "hello")
		case "/panic":
			panic("boom")
		case "/stream":
			_, _ = io.WriteString(w, "a")
			w.(http.Flusher).Flush()
			_, _ = io.WriteString(w, "b")
		}
	})}
	tr := &Transport{Host: h, Closed: errClosed}

	resp, err := get(t, tr, "/ok")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusCreated || string(body) != "hello" || resp.ContentLength != 5 {
		t.Errorf("ok: %d %q length %d", resp.StatusCode, body, resp.ContentLength)
	}

	// A panicking handler drops the connection, as net/http does.
	if _, err := get(t, tr, "/panic"); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("panic: err = %v", err)
	}

	// A streaming route returns at its first flush; the rest follows.
	resp, err = get(t, tr, "/stream")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ab" || resp.ContentLength != -1 {
		t.Errorf("stream: %q length %d", body, resp.ContentLength)
	}
	h.wg.Wait()

	h.closed = true
	if _, err := get(t, tr, "/ok"); !errors.Is(err, errClosed) {
		t.Errorf("closed: err = %v", err)
	}
}

// TestTakeBytes: a complete body hands over what is unread, without a copy,
// and is then at its end.
func TestTakeBytes(t *testing.T) {
	h := &host{ctx: t.Context(), h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "hello world")
	})}
	resp, err := get(t, &Transport{Host: h, Closed: errClosed}, "/ok")
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 6)
	if _, err := io.ReadFull(resp.Body, p); err != nil {
		t.Fatal(err)
	}
	held, ok := resp.Body.(interface{ TakeBytes() []byte })
	if !ok {
		t.Fatalf("body %T has no TakeBytes", resp.Body)
	}
	if rest := held.TakeBytes(); string(rest) != "world" {
		t.Errorf("TakeBytes = %q", rest)
	}
	if n, err := resp.Body.Read(p); n != 0 || err != io.EOF {
		t.Errorf("Read after TakeBytes = %d, %v", n, err)
	}
	if rest := held.TakeBytes(); len(rest) != 0 {
		t.Errorf("second TakeBytes = %q", rest)
	}
}

// A streaming handler whose caller went away may return without writing,
// committing an empty 200 at the moment the caller's context ends: the
// cancelled request gets its error, never that 200.
func TestCancelledStreamingRequestGetsNoResponse(t *testing.T) {
	h := &host{ctx: t.Context(), h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // returns without writing
	})}
	tr := &Transport{Host: h, Closed: errClosed}
	for range 300 {
		ctx, cancel := context.WithCancel(t.Context())
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://double.test/stream", nil)
		go cancel()
		resp, err := tr.RoundTrip(req)
		if err == nil {
			resp.Body.Close()
			t.Fatalf("a cancelled request got %s", resp.Status)
		}
	}
	h.wg.Wait()
}

// countingHost counts the requests entered and not yet left.
type countingHost struct {
	host
	n atomic.Int32
}

func (h *countingHost) Enter() bool { h.n.Add(1); return true }
func (h *countingHost) Leave()      { h.n.Add(-1) }

// A streaming request stops counting as in flight (what the server's Close
// gives its grace to) once its response is committed, though its handler
// goes on streaming; before that, it counts.
func TestStreamingRequestLeavesOnceCommitted(t *testing.T) {
	entered, flush := make(chan struct{}), make(chan struct{})
	h := &countingHost{}
	h.ctx = t.Context()
	h.h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-flush
		_, _ = io.WriteString(w, "data: hi\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done() // an open stream
	})
	tr := &Transport{Host: h, Closed: errClosed}
	type result struct {
		resp *http.Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := get(t, tr, "/stream")
		done <- result{resp, err}
	}()
	<-entered
	if n := h.n.Load(); n != 1 {
		t.Errorf("before its response: %d requests in flight, want 1", n)
	}
	close(flush)
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if n := h.n.Load(); n != 0 {
		t.Errorf("with its response streaming: %d requests in flight, want 0", n)
	}
	r.resp.Body.Close()
	h.wg.Wait()
	if n := h.n.Load(); n != 0 {
		t.Errorf("after the handler returned: %d requests in flight, want 0", n)
	}
}
