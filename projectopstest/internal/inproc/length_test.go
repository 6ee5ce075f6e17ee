package inproc

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// A response's length reads as it does over a socket: a Content-Length
// the handler declared survives a flush, and a HEAD answer carries the
// declared length (or, from a handler that wrote its body, that body's),
// with no body to read. A handler writing past the length it declared is
// refused (http.ErrContentLength) and one writing less leaves the client's
// read cut short (io.ErrUnexpectedEOF), streaming or not; a 204 or 304
// has no body and no Content-Length, and refuses writes
// (http.ErrBodyNotAllowed). The header is the one set with the status: a
// Content-Length (or any header) set after WriteHeader is neither sent nor
// enforced, and one that is not a length is dropped.
//
// The handler's query: declare[=N] sets Content-Length (5 by default),
// code=N calls WriteHeader, late=N then sets Content-Length and X-Late,
// flush flushes, write[=S] writes S ("hello" by default). What each Write
// returned is compared too.
func TestContentLengthAsOverASocket(t *testing.T) {
	var mu sync.Mutex
	writeErrs := map[bool]map[string]string{false: {}, true: {}} // in process?, then by method and query
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Has("declare") {
			n := q.Get("declare")
			if n == "" {
				n = "5"
			}
			w.Header().Set("Content-Length", n)
		}
		if code, err := strconv.Atoi(q.Get("code")); err == nil {
			w.WriteHeader(code)
		}
		if q.Has("late") {
			w.Header().Set("Content-Length", q.Get("late"))
			w.Header().Set("X-Late", "1")
		}
		if q.Has("flush") {
			w.(http.Flusher).Flush()
		}
		if q.Has("write") {
			s := q.Get("write")
			if s == "" {
				s = "hello"
			}
			n, err := io.WriteString(w, s)
			mu.Lock()
			writeErrs[r.Host == "double.test"][r.Method+" "+r.URL.RawQuery] = fmt.Sprint(n, " ", err)
			mu.Unlock()
		}
	})
	h := &host{ctx: t.Context(), h: handler}
	tr := &Transport{Host: h, Closed: errClosed}
	real := httptest.NewServer(handler)
	defer real.Close()

	for _, tc := range []struct{ method, query string }{
		{http.MethodHead, "declare"},
		{http.MethodHead, "declare&write"},
		{http.MethodHead, "write"},
		{http.MethodHead, ""},
		{http.MethodHead, "declare&flush"},
		{http.MethodHead, "stream&declare&flush&write"},
		{http.MethodGet, "declare&write"},
		{http.MethodGet, "declare&flush&write"},

		// More written than declared: the write is refused whole.
		{http.MethodGet, "stream&declare=5&flush&write=hello+world"},
		{http.MethodGet, "declare=5&write=hello+world"},
		{http.MethodHead, "stream&declare=5&flush&write=hello+world"},
		{http.MethodHead, "declare=5&write=hello+world"},
		// Less written than declared: the read ends in io.ErrUnexpectedEOF.
		{http.MethodGet, "stream&declare=10&flush&write=hello"},
		{http.MethodGet, "declare=10&write=hello"},
		{http.MethodGet, "stream&declare=10&flush"},
		{http.MethodGet, "declare=10"},
		{http.MethodHead, "stream&declare=10&flush&write=hello"},
		{http.MethodHead, "declare=10&write=hello"},
		// Exactly the declared length, streamed.
		{http.MethodGet, "stream&declare=11&flush&write=hello+world"},

		// 204 and 304: no body, no Content-Length, writes refused.
		{http.MethodGet, "code=204&declare&write"},
		{http.MethodGet, "code=304&declare&write"},
		{http.MethodGet, "stream&code=204&declare&flush&write"},
		{http.MethodGet, "stream&code=304&declare&flush&write"},
		{http.MethodHead, "code=204&declare&write"},
		{http.MethodHead, "code=304&declare&write"},
		{http.MethodHead, "stream&code=204&declare&flush&write"},
		{http.MethodHead, "stream&code=304&declare&flush&write"},
		{http.MethodGet, "code=204&write"},

		// A body whose length the handler did not declare: the server
		// counts it.
		{http.MethodGet, "write"},
		{http.MethodGet, ""},
		// Set after WriteHeader: neither sent nor enforced.
		{http.MethodGet, "code=200&late=3&write"},
		{http.MethodGet, "stream&code=200&late=3&flush&write"},
		{http.MethodGet, "code=200&late=10&write"},
		{http.MethodHead, "code=200&late=3&write"},
		{http.MethodHead, "stream&code=200&late=3&flush&write"},
		// Not a length: dropped, and the body is sent without one.
		{http.MethodGet, "declare=abc&write"},
		{http.MethodGet, "stream&declare=abc&flush&write"},
		{http.MethodGet, "code=200&declare=-1&write"},
		// (A HEAD answer's is sent as it is, which net/http's client
		// refuses: not compared.)
	} {
		path := "/?" + tc.query
		if tc.query != "" && tc.query[:min(6, len(tc.query))] == "stream" {
			path = "/stream?" + tc.query
		}
		want := do(t, http.DefaultTransport, tc.method, real.URL+path)
		got := do(t, tr, tc.method, "http://double.test"+path)
		if got != want {
			t.Errorf("%s %s:\n in process  %+v\n over socket %+v", tc.method, path, got, want)
		}
	}
	real.Close() // waits for its handlers
	h.wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	for k, want := range writeErrs[false] {
		if got := writeErrs[true][k]; got != want {
			t.Errorf("%s: the handler's Write returned %q in process, %q over a socket", k, got, want)
		}
	}
}

type lengths struct {
	ContentLength int64
	Header, Body  string
	Late          string // X-Late, set after WriteHeader
	Err           string // the body read's error, if any
}

func do(t *testing.T, rt http.RoundTripper, method, url string) lengths {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second) // a handler blocked writing a HEAD answer fails, not hangs
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	l := lengths{ContentLength: resp.ContentLength, Header: resp.Header.Get("Content-Length"), Body: string(b),
		Late: resp.Header.Get("X-Late")}
	if err != nil {
		l.Err = err.Error()
	}
	return l
}

// A streamed body with a declared length ends once that many bytes are
// read, as over a socket, though the handler goes on: the client does not
// wait for the handler to return.
func TestStreamEndsAtDeclaredLength(t *testing.T) {
	release := make(chan struct{})
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "5")
		w.(http.Flusher).Flush()
		_, _ = io.WriteString(w, "hello")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-time.After(10 * time.Second):
		}
	})
	h := &host{ctx: t.Context(), h: handler}
	tr := &Transport{Host: h, Closed: errClosed}
	real := httptest.NewServer(handler)
	defer real.Close()
	defer func() { close(release); h.wg.Wait() }()
	for _, c := range []struct {
		via string
		rt  http.RoundTripper
		url string
	}{{"over a socket", http.DefaultTransport, real.URL}, {"in process", tr, "http://double.test"}} {
		done := make(chan lengths, 1)
		go func() {
			var l lengths
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, c.url+"/stream", nil)
			resp, err := c.rt.RoundTrip(req)
			if err != nil {
				l.Err = err.Error()
			} else {
				defer resp.Body.Close()
				b, err := io.ReadAll(resp.Body)
				l = lengths{ContentLength: resp.ContentLength, Header: resp.Header.Get("Content-Length"), Body: string(b)}
				if err != nil {
					l.Err = err.Error()
				}
			}
			done <- l
		}()
		select {
		case got := <-done:
			if want := (lengths{ContentLength: 5, Header: "5", Body: "hello"}); got != want {
				t.Errorf("%s: %+v, want %+v", c.via, got, want)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("%s: the body did not end at its declared length while the handler ran", c.via)
		}
	}
}

// A handler that kept the header map it read before WriteHeader (a common
// middleware shape) and changes it afterwards changes nothing that is
// sent, as with net/http's server, which snapshots such a map at the
// status: Content-Length and X-Late set after WriteHeader are neither sent
// nor enforced, whether the response is buffered or streamed, and whether
// the change comes before the flush or after it (when it must not reach
// the header the client already holds).
func TestKeptHeaderMapChangedAfterWriteHeaderIsNotSent(t *testing.T) {
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusOK)
		q := r.URL.Query()
		if q.Has("flush") {
			w.(http.Flusher).Flush()
		}
		if q.Has("swap") {
			// As many keys as before, one of them new.
			h.Del("Content-Type")
		} else {
			h.Set("Content-Length", "3")
		}
		h.Set("X-Late", "1")
		if r.URL.Path == "/stream" {
			w.(http.Flusher).Flush()
		}
		_, _ = io.WriteString(w, "hello")
	})
	hst := &host{ctx: t.Context(), h: handler}
	tr := &Transport{Host: hst, Closed: errClosed}
	real := httptest.NewServer(handler)
	defer real.Close()
	for _, path := range []string{"/", "/?swap", "/stream", "/stream?swap", "/stream?flush"} {
		for _, method := range []string{http.MethodGet, http.MethodHead} {
			want := do(t, http.DefaultTransport, method, real.URL+path)
			got := do(t, tr, method, "http://double.test"+path)
			if got != want {
				t.Errorf("%s %s:\n in process  %+v\n over socket %+v", method, path, got, want)
			}
		}
	}
	real.Close()
	hst.wg.Wait()
}
