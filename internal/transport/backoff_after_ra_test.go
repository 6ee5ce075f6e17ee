package transport

import (
	"net/http"
	"testing"
	"time"
)

// docs/sdk.md (Retries, "the defaults, exactly"): "the n-th retry waits a
// random duration in [0.5, 1.5] × min(base × 2^(n-1), max)". A retry that
// waited out a Retry-After does not advance the backoff (it is created on
// the first backoff wait only), so after a 429 with "Retry-After: 0" the
// 2nd retry waits [0.5, 1.5] × base instead of [0.5, 1.5] × 2·base.
func TestNthRetryBackoffAfterRetryAfter(t *testing.T) {
	t.Parallel()
	const base = 100 * time.Millisecond // newTestTransport's BaseDelay
	below := 0
	for range 40 {
		mock, _ := mockRoute(t, http.MethodGet, "/r", raReply(429, "0"), status(503), reply{status: 200, body: `{}`})
		tr, sl := newTestTransport(t, mock)
		if err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/r", Class: Read}, nil); err != nil {
			t.Fatal(err)
		}
		d := sl.all()
		if len(d) != 2 {
			t.Fatalf("sleeps %v", d)
		}
		if d[1] < base { // documented range for the 2nd retry: [100ms, 300ms]
			below++
		}
	}
	if below > 0 {
		t.Errorf("%d/40 second retries waited less than %s, the documented minimum for the 2nd retry", below, base)
	}
}
