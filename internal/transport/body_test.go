package transport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// largeJSON is a JSON object of about n bytes.
func largeJSON(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"items":[`)
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + strings.Repeat("x", 1000) + `"`)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// bytesPerAttempt is the least, over three rounds of a few calls, of the
// bytes one attempt of call allocates: under -race sync.Pool drops a
// random share of Puts, and a concurrent collection or goroutine adds to
// TotalAlloc; both only add.
func bytesPerAttempt(call func(), attempts *atomic.Int64) uint64 {
	call() // the first call's one-time costs are not counted
	least := uint64(math.MaxUint64)
	for range 3 {
		var before, after runtime.MemStats
		runtime.GC()
		n0 := attempts.Load()
		runtime.ReadMemStats(&before)
		for range 3 {
			call()
		}
		runtime.ReadMemStats(&after)
		least = min(least, (after.TotalAlloc-before.TotalAlloc)/uint64(attempts.Load()-n0))
	}
	return least
}

// A body of declared length over a MiB is read into one buffer of its
// size, grown to it once its first MiB arrived: about the body's size
// and a MiB, where io.ReadAll's doubling allocated several times the body.
// A Content-Length that lies (32 MiB declared, 10 bytes sent) costs that
// first MiB, not the 32 declared. WithResponseInto's copy reads the same.
// A held body (the in-process double's) is handed over, so it is taken
// as it is, WithResponseInto's too: nothing else holds its bytes.
func TestLargeBodyBytes(t *testing.T) {
	body := largeJSON(8 << 20)
	for _, tc := range []struct {
		name       string
		sent       []byte
		declared   int64
		keep, held bool
		limit      uint64
	}{
		{"declared", body, int64(len(body)), false, false, uint64(len(body)) + sizedFirstRead},
		{"declared, response kept", body, int64(len(body)), true, false, uint64(len(body)) + sizedFirstRead},
		{"declared 32 MiB, 10 bytes sent", []byte(`{"a":"bc"}`), 32 << 20, false, false, sizedFirstRead},
		{"held, response kept", body, int64(len(body)), true, true, 64 << 10},
	} {
		var attempts atomic.Int64
		rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			attempts.Add(1)
			var b io.ReadCloser = io.NopCloser(bytes.NewReader(tc.sent))
			if tc.held {
				b = &heldBytes{Reader: bytes.NewReader(tc.sent), all: tc.sent}
			}
			return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
				ContentLength: tc.declared, Body: b, Request: r}, nil
		})
		tr, _ := newTestTransport(t, rt)
		call := func() {
			ctx := context.Background()
			if tc.keep {
				ctx = WithOptions(ctx, []option.RequestOption{option.WithResponseInto(new(option.Response))})
			}
			// Into an empty struct: the decoder keeps nothing, so what is
			// counted is the read.
			// (A body cut short is an error: TestDecodeSuccessByLength.)
			err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/x"}, &struct{}{})
			if err != nil && tc.declared == int64(len(tc.sent)) {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		// Slack for the call's own allocations and -race's.
		got, limit := bytesPerAttempt(call, &attempts), tc.limit+tc.limit/8
		t.Logf("%s: %.2f MiB allocated per attempt", tc.name, float64(got)/(1<<20))
		if got > limit {
			t.Errorf("%s: %.2f MiB allocated per attempt, want at most %.2f MiB", tc.name, float64(got)/(1<<20), float64(limit)/(1<<20))
		}
	}
}

// heldBytes is a body that hands over its unread bytes without a copy,
// as the in-process double's does (heldBody).
type heldBytes struct {
	*bytes.Reader
	all []byte
}

func (h *heldBytes) TakeBytes() []byte {
	rest := h.all[len(h.all)-h.Len():]
	h.Reset(nil)
	return rest
}

func (*heldBytes) Close() error { return nil }

// A body longer than its Content-Length (a RoundTripper that decoded gzip
// but left the compressed length) is read to its end, as it was before
// bodies of declared length were read by it: cut at the stale length it
// failed to decode, or, when the cut was valid JSON, lost the rest
// silently, where docs/sdk.md makes data after the value an error
// whatever the framing. Past the cap it is too large, as a body of
// unknown length is.
func TestBodyLongerThanDeclared(t *testing.T) {
	t.Parallel()
	small := []byte(`{"id":"a","padding":"` + strings.Repeat("x", 200) + `"}`)
	big := largeJSON(3 << 20)
	twoValues := []byte(`{"id":"a"} {"id":"b"}`)
	do := func(body []byte, declared int64, keep, held bool, limit int64) (*option.Response, error) {
		rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			var b io.ReadCloser = io.NopCloser(bytes.NewReader(body))
			if held {
				b = &heldReader{Reader: strings.NewReader(string(body)), all: string(body)}
			}
			return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
				ContentLength: declared, Body: b, Request: r}, nil
		})
		tr, _ := newTestTransport(t, rt, func(c *Config) { c.MaxRetries, c.MaxResponseBytes = 0, limit })
		ctx := t.Context()
		meta := new(option.Response)
		if keep {
			ctx = WithOptions(ctx, []option.RequestOption{option.WithResponseInto(meta)})
		}
		var out map[string]any
		return meta, tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/x"}, &out)
	}
	for _, held := range []bool{false, true} {
		for _, tc := range []struct {
			name     string
			body     []byte
			declared int64
			keep     bool
		}{
			{"small", small, 40, false},
			{"small, kept", small, 40, true},
			{"over the first read", big, 2 << 20, false},
			{"over the first read, kept", big, 2 << 20, true},
		} {
			meta, err := do(tc.body, tc.declared, tc.keep, held, DefaultMaxResponseBytes)
			if err != nil {
				t.Errorf("%s, held=%v: %v", tc.name, held, err)
			}
			if tc.keep && !bytes.Equal(meta.Body, tc.body) {
				t.Errorf("%s, held=%v: kept %d bytes of %d", tc.name, held, len(meta.Body), len(tc.body))
			}
		}
		// The declared prefix is a JSON value: the rest is data after it,
		// the error it is without a length.
		_, unknown := do(twoValues, -1, false, false, DefaultMaxResponseBytes)
		_, declared := do(twoValues, int64(len(`{"id":"a"}`)), false, held, DefaultMaxResponseBytes)
		if unknown == nil || declared == nil || declared.Error() != unknown.Error() {
			t.Errorf("two values, held=%v: declared prefix gave %v; unknown length gave %v", held, declared, unknown)
		}
		// Past the cap, however little was declared.
		for _, limit := range []int64{int64(len(small)) - 1, 40} {
			_, err := do(small, 40, false, held, limit)
			if tl, ok := errors.AsType[*shared.ResponseTooLargeError](err); !ok || tl.ContentLength != -1 {
				t.Errorf("held=%v, cap %d: err = %v; want a ResponseTooLargeError of unknown length", held, limit, err)
			}
		}
	}
}

// A body that ends after its first read but short of its declared length
// is cut: io.ErrUnexpectedEOF, as io.ReadFull says of a body that ends
// inside its first read, not the io.EOF of one that sent nothing.
func TestReadSizedEndsAfterFirstRead(t *testing.T) {
	t.Parallel()
	body := bytes.Repeat([]byte(" "), sizedFirstRead)
	_, err := readSized(bytes.NewReader(body), sizedFirstRead+1, DefaultMaxResponseBytes)
	if err != io.ErrUnexpectedEOF {
		t.Errorf("err = %v, want io.ErrUnexpectedEOF", err)
	}
}
