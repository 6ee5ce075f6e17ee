package inproc

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// A response's length reads as it does over a socket: a Content-Length
// the handler declared survives a flush, and a HEAD answer carries the
// declared length (or, from a handler that wrote its body, that body's),
// with no body to read.
func TestContentLengthAsOverASocket(t *testing.T) {
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Has("declare") {
			w.Header().Set("Content-Length", "5")
		}
		if q.Has("flush") {
			w.(http.Flusher).Flush()
		}
		if q.Has("write") {
			_, _ = io.WriteString(w, "hello")
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
	} {
		path := "/?" + tc.query
		if tc.query != "" && tc.query[:min(6, len(tc.query))] == "stream" {
			path = "/stream?" + tc.query
		}
		want := do(t, http.DefaultTransport, tc.method, real.URL+path)
		got := do(t, tr, tc.method, "http://double.test"+path)
		if got != want {
			t.Errorf("%s %s: in process %+v, over a socket %+v", tc.method, path, got, want)
		}
	}
	h.wg.Wait()
}

type lengths struct {
	ContentLength int64
	Header, Body  string
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
	b, _ := io.ReadAll(resp.Body)
	return lengths{resp.ContentLength, resp.Header.Get("Content-Length"), string(b)}
}
