package ingest_test

import (
	"bytes"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
)

// recorder wraps a RoundTripper: it reports each request body's size, can
// lose the response of every loseEvery-th append after the server applied
// it, and tracks how many appends are in flight.
type recorder struct {
	next      http.RoundTripper
	onBody    func(route string, n int)
	loseEvery int

	mu       sync.Mutex
	appends  int
	inflight atomic.Int32
	onStart  func(inflight int32)
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var n int
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		n = len(b)
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	if r.onBody != nil {
		r.onBody(req.URL.Path, n)
	}
	isAppend := bytes.HasSuffix([]byte(req.URL.Path), []byte("/runs/iterations"))
	if !isAppend {
		return r.next.RoundTrip(req)
	}
	cur := r.inflight.Add(1)
	defer r.inflight.Add(-1)
	if r.onStart != nil {
		r.onStart(cur)
	}
	r.mu.Lock()
	r.appends++
	lose := r.loseEvery > 0 && r.appends%r.loseEvery == 0
	r.mu.Unlock()
	resp, err := r.next.RoundTrip(req)
	if err == nil && lose {
		resp.Body.Close()
		return nil, io.ErrUnexpectedEOF // applied, but the answer never arrived
	}
	return resp, err
}
