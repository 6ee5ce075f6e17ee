package transport

import (
	"bytes"
	"context"
	"io"
	"math"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/projectops/projectops-go/option"
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
func TestLargeBodyBytes(t *testing.T) {
	body := largeJSON(8 << 20)
	for _, tc := range []struct {
		name     string
		sent     []byte
		declared int64
		keep     bool
		limit    uint64
	}{
		{"declared", body, int64(len(body)), false, uint64(len(body)) + sizedFirstRead},
		{"declared, response kept", body, int64(len(body)), true, uint64(len(body)) + sizedFirstRead},
		{"declared 32 MiB, 10 bytes sent", []byte(`{"a":"bc"}`), 32 << 20, false, sizedFirstRead},
	} {
		var attempts atomic.Int64
		rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			attempts.Add(1)
			return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
				ContentLength: tc.declared, Body: io.NopCloser(bytes.NewReader(tc.sent)), Request: r}, nil
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
