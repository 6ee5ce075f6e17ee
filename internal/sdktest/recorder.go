package sdktest

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

// Exchange is one request and response seen by a Recorder.
type Exchange struct {
	Method, Path string
	Header       http.Header
	Status       int
	Body         []byte
}

// Recorder is an http.RoundTripper that records raw exchanges on their way
// through RT, for asserting what went over the wire.
type Recorder struct {
	RT http.RoundTripper
	mu sync.Mutex
	ex []Exchange
}

// RoundTrip implements http.RoundTripper.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.RT.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(b))
	r.mu.Lock()
	r.ex = append(r.ex, Exchange{Method: req.Method, Path: req.URL.Path, Header: req.Header.Clone(),
		Status: resp.StatusCode, Body: b})
	r.mu.Unlock()
	return resp, nil
}

// Exchanges returns what was recorded so far.
func (r *Recorder) Exchanges() []Exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Exchange(nil), r.ex...)
}
