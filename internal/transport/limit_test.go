package transport

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/shared"
)

// jsonStream is a streamed JSON body {"s":"xxx…"} of exactly n bytes that
// is never held in memory; it counts what was read.
type jsonStream struct {
	n, off int64
}

func newJSONStream(n int64) *jsonStream { return &jsonStream{n: n} }

func (j *jsonStream) Read(p []byte) (int, error) {
	const head, tail = `{"s":"`, `"}`
	if j.off >= j.n {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && j.off < j.n {
		switch {
		case j.off < int64(len(head)):
			p[k] = head[j.off]
		case j.off >= j.n-int64(len(tail)):
			p[k] = tail[j.off-(j.n-int64(len(tail)))]
		default:
			p[k] = 'x'
		}
		k++
		j.off++
	}
	return k, nil
}

func bodyTransport(size, declared int64) (roundTripFunc, *[]*jsonStream) {
	var bodies []*jsonStream
	return func(r *http.Request) (*http.Response, error) {
		b := newJSONStream(size)
		bodies = append(bodies, b)
		return &http.Response{StatusCode: 200, Header: http.Header{}, ContentLength: declared,
			Body: io.NopCloser(b), Request: r}, nil
	}, &bodies
}

// A success body over the cap is a *shared.ResponseTooLargeError, whether
// its length is declared (then nothing is read) or it is streamed (then
// reading stops at the cap); a body of exactly the cap decodes.
func TestResponseCap(t *testing.T) {
	t.Parallel()
	const limit = 4 << 10
	for _, tc := range []struct {
		name           string
		size, declared int64
		tooLarge       bool
	}{
		{"declared, at the cap", limit, limit, false},
		{"streamed, at the cap", limit, -1, false},
		{"declared, over", limit + 1, limit + 1, true},
		{"streamed, over", limit + 1, -1, true},
		{"streamed, far over", 1 << 30, -1, true},
		{"declared huge", 1 << 40, 1 << 40, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rt, bodies := bodyTransport(tc.size, tc.declared)
			tr, _ := newTestTransport(t, rt, func(c *Config) { c.MaxResponseBytes = limit })
			var out struct{ S string }
			err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/big"}, &out)
			var tl *shared.ResponseTooLargeError
			if got := errors.As(err, &tl); got != tc.tooLarge {
				t.Fatalf("err = %v, want too large: %v", err, tc.tooLarge)
			}
			if !tc.tooLarge {
				if len(out.S) != limit-8 {
					t.Errorf("decoded %d bytes, want %d", len(out.S), limit-8)
				}
				return
			}
			if tl.Limit != limit || tl.Method != http.MethodGet || tl.Path != "/big" || !strings.Contains(err.Error(), "WithMaxResponseBytes") {
				t.Errorf("error %+v (%v)", tl, err)
			}
			// What was read: the cap, one byte to see there is more, and the
			// small drain that lets the connection be reused.
			if n := (*bodies)[0].off; n > limit+1+4<<10 {
				t.Errorf("read %d bytes of a body over a %d-byte cap", n, limit)
			}
		})
	}
}

// Without an option the cap is DefaultMaxResponseBytes.
func TestResponseCapDefault(t *testing.T) {
	t.Parallel()
	rt, bodies := bodyTransport(DefaultMaxResponseBytes+1, -1)
	tr, _ := newTestTransport(t, rt)
	var out struct{ S string }
	err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/big"}, &out)
	var tl *shared.ResponseTooLargeError
	if !errors.As(err, &tl) || tl.Limit != DefaultMaxResponseBytes {
		t.Fatalf("err = %v, want a ResponseTooLargeError at the default cap", err)
	}
	if n := (*bodies)[0].off; n > DefaultMaxResponseBytes+1+4<<10 {
		t.Errorf("read %d bytes", n)
	}
}

// BenchmarkOversizedBody decodes a streamed 200 MiB success body with the
// default settings: B/op is what one such response costs the caller.
//
//	go test -run '^$' -bench OversizedBody -benchtime 3x ./internal/transport
func BenchmarkOversizedBody(b *testing.B) {
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{}, ContentLength: -1,
			Body: io.NopCloser(newJSONStream(200 << 20)), Request: r}, nil
	})
	tr := New(Config{BaseURL: testBase, APIKey: testKey, HTTPClient: &http.Client{Transport: rt}})
	b.ReportAllocs()
	for b.Loop() {
		var out struct{ S string }
		_ = tr.Do(b.Context(), &Request{Method: http.MethodGet, Route: "/big"}, &out)
	}
}
