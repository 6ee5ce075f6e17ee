package transport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// releases counts the calls of a Request.Release.
type releases struct{ n atomic.Int32 }

func (r *releases) release() { r.n.Add(1) }

func (r *releases) want(t *testing.T, n int32, when string) {
	t.Helper()
	if got := r.n.Load(); got != n {
		t.Errorf("%s: Release called %d times, want %d", when, got, n)
	}
}

func okAnswer(req *http.Request) *http.Response {
	return &http.Response{StatusCode: 200, Request: req, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(`{}`))}
}

// A RoundTripper may close the body after RoundTrip returned (the
// http.RoundTripper contract): RawBody is released only then, not when Do
// returns, and Do does not wait for it. A body read after its Close reads
// nothing of the buffer, which may be another request's by then.
func TestReleaseWaitsForBodyClose(t *testing.T) {
	t.Parallel()
	var held io.ReadCloser
	var length int64
	rt := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		held, length = req.Body, req.ContentLength
		return okAnswer(req), nil
	})
	tr, _ := newTestTransport(t, rt)
	var rel releases
	body := []byte(`{"a":1}`)
	if err := tr.Do(context.Background(), &Request{Method: http.MethodPost, Route: "/x", Class: Idempotent,
		RawBody: body, Release: rel.release}, nil); err != nil {
		t.Fatal(err)
	}
	rel.want(t, 0, "Do returned, the body still open")
	if length != int64(len(body)) {
		t.Errorf("ContentLength = %d, want %d", length, len(body))
	}
	got, err := io.ReadAll(held)
	if err != nil || !bytes.Equal(got, body) {
		t.Errorf("body = %q, %v", got, err)
	}
	_ = held.Close()
	rel.want(t, 1, "the body closed")
	_ = held.Close()
	rel.want(t, 1, "the body closed twice")
	if n, err := held.Read(make([]byte, 8)); n != 0 || !errors.Is(err, errBodyClosed) {
		t.Errorf("Read after Close = %d, %v", n, err)
	}
}

// Each copy GetBody makes (net/http's own re-send, a redirect's) holds the
// buffer until it is closed, as the first body does.
func TestReleaseWaitsForGetBodyCopies(t *testing.T) {
	t.Parallel()
	var copies []io.ReadCloser
	rt := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		for range 2 {
			c, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			copies = append(copies, c)
		}
		_ = req.Body.Close()
		return okAnswer(req), nil
	})
	tr, _ := newTestTransport(t, rt)
	var rel releases
	if err := tr.Do(context.Background(), &Request{Method: http.MethodPost, Route: "/x", Class: Idempotent,
		RawBody: []byte(`{"a":1}`), Release: rel.release}, nil); err != nil {
		t.Fatal(err)
	}
	for i, c := range copies {
		rel.want(t, 0, "a GetBody copy still open")
		if got, err := io.ReadAll(c); err != nil || string(got) != `{"a":1}` {
			t.Errorf("copy %d = %q, %v", i, got, err)
		}
		_ = c.Close()
	}
	rel.want(t, 1, "every copy closed")
}

// Every attempt's body counts: one retried after a 503 is released once,
// when the last body is closed, which a RoundTripper closing them in
// RoundTrip does before Do returns.
func TestReleaseAfterRetries(t *testing.T) {
	t.Parallel()
	var rel releases
	attempts := 0
	rt := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		attempts++
		_ = req.Body.Close()
		rel.want(t, 0, "inside an attempt")
		if attempts == 1 {
			return &http.Response{StatusCode: 503, Request: req, Header: http.Header{}, Body: http.NoBody}, nil
		}
		return okAnswer(req), nil
	})
	tr, _ := newTestTransport(t, rt)
	if err := tr.Do(context.Background(), &Request{Method: http.MethodPost, Route: "/x", Class: Idempotent,
		RawBody: []byte(`{}`), Release: rel.release}, nil); err != nil || attempts != 2 {
		t.Fatalf("Do = %v after %d attempts", err, attempts)
	}
	rel.want(t, 1, "Do returned")
}

// A call that sends nothing (no key) still hands the buffer back, once.
func TestReleaseWithoutAttempt(t *testing.T) {
	t.Parallel()
	tr, _ := newTestTransport(t, roundTripFunc(func(*http.Request) (*http.Response, error) {
		t.Error("nothing should be sent")
		return nil, errors.New("sent")
	}), func(c *Config) { c.APIKey = "" })
	var rel releases
	if err := tr.Do(context.Background(), &Request{Method: http.MethodPost, Route: "/x", RawBody: []byte(`{}`),
		Release: rel.release}, nil); err == nil {
		t.Fatal("Do without a key succeeded")
	}
	rel.want(t, 1, "Do returned")
}

// Over net/http's own Transport the body goes out whole, with its length,
// and the buffer comes back once the Transport closed the body, which it
// may do after Do returned: the test waits for that, not for a time.
func TestReleaseOverNetHTTP(t *testing.T) {
	t.Parallel()
	var got []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength != 7 {
			t.Errorf("Content-Length = %d", r.ContentLength)
		}
		got, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	tr, _ := newTestTransport(t, srv.Client().Transport, func(c *Config) { c.BaseURL = srv.URL })
	released := make(chan struct{})
	var once sync.Once
	if err := tr.Do(context.Background(), &Request{Method: http.MethodPost, Route: "/x", Class: Idempotent,
		RawBody: []byte(`{"a":1}`), Release: func() { once.Do(func() { close(released) }) }}, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-released:
	case <-time.After(time.Minute): // a hang made a failure, not a timing
		t.Fatal("the body was never handed back")
	}
	if string(got) != `{"a":1}` {
		t.Errorf("server read %q", got)
	}
}

// A RoundTripper that keeps the request and calls GetBody after Do
// returned and every body was closed (a hedging or mirroring wrapper, a
// replay) is refused: the buffer was handed back already, so a copy would
// read bytes the caller has reused, and closing it would hand the buffer
// back twice (the Reporter's pool would then give one slice out twice).
func TestGetBodyAfterReleaseRefused(t *testing.T) {
	t.Parallel()
	var kept *http.Request
	rt := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		kept = req
		_ = req.Body.Close()
		return okAnswer(req), nil
	})
	tr, _ := newTestTransport(t, rt)
	var rel releases
	if err := tr.Do(context.Background(), &Request{Method: http.MethodPost, Route: "/x", Class: Idempotent,
		RawBody: []byte(`{"a":1}`), Release: rel.release}, nil); err != nil {
		t.Fatal(err)
	}
	rel.want(t, 1, "Do returned, the body closed")
	rc, err := kept.GetBody()
	if !errors.Is(err, errBodyReleased) || rc != nil {
		t.Errorf("GetBody after Release = %v, %v; want nil, errBodyReleased", rc, err)
	}
	if rc != nil {
		_ = rc.Close()
	}
	rel.want(t, 1, "after a late GetBody")
}

// A server that answers without reading a large body (net/http's HTTP/1
// write loop may still hold it then; HTTP/2 resets the stream) still gets
// every buffer handed back: net/http closes the body when its write ends
// or the connection drops.
func TestReleaseEarlyAnswer(t *testing.T) {
	for _, h2 := range []bool{false, true} {
		t.Run(map[bool]string{false: "h1", true: "h2"}[h2], func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if h2 != (r.ProtoMajor == 2) {
					t.Errorf("proto %s", r.Proto)
				}
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, `{}`)
			}))
			if h2 {
				srv.EnableHTTP2 = true
				srv.StartTLS()
			} else {
				srv.Start()
			}
			defer srv.Close()
			ht := srv.Client().Transport.(*http.Transport).Clone()
			ht.ForceAttemptHTTP2 = h2
			tr, _ := newTestTransport(t, ht, func(c *Config) { c.BaseURL = srv.URL })
			const calls = 50
			released := make(chan struct{}, calls)
			body := bytes.Repeat([]byte("x"), 1<<20)
			var wg sync.WaitGroup
			for range calls {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_ = tr.Do(context.Background(), &Request{Method: http.MethodPost, Route: "/x", Class: Idempotent,
						RawBody: body, Release: func() { released <- struct{}{} }}, nil)
				}()
			}
			wg.Wait()
			guard := time.After(time.Minute) // a hang made a failure, not a timing
			for i := range calls {
				select {
				case <-released:
				case <-guard:
					t.Fatalf("released %d of %d", i, calls)
				}
			}
		})
	}
}
