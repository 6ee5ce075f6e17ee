package transport

import (
	"bytes"
	"context"
	"log/slog"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Callers refused in one window get the same whole-second Retry-After from
// the service's per-key limiter; the spec (section 8) asks for jitter on
// 429, so each wait is Retry-After plus a random part of up to a quarter of
// it: never earlier, not all alike, never past the cap or a deadline that
// Retry-After alone meets.
func TestRetryAfterJitter(t *testing.T) {
	t.Parallel()
	const none = time.Duration(math.MaxInt64) // no deadline
	seen := map[time.Duration]bool{}
	for range 200 {
		d := raJitter(time.Second, time.Minute, none)
		if d < time.Second || d >= time.Second+time.Second/4 {
			t.Fatalf("wait %s for Retry-After 1s, want within [1s, 1.25s)", d)
		}
		seen[d] = true
	}
	if len(seen) < 100 {
		t.Errorf("200 waits took %d distinct values: no jitter to speak of", len(seen))
	}
	if d := raJitter(0, time.Minute, none); d != 0 {
		t.Errorf("Retry-After 0 waits %s, want 0", d)
	}
	if d := raJitter(58*time.Second, time.Minute, none); d < 58*time.Second || d > time.Minute {
		t.Errorf("Retry-After 58s under a 60s cap waits %s", d)
	}
	// 100ms left after Retry-After: jitter takes at most half of it.
	for range 50 {
		if d := raJitter(time.Second, time.Minute, 1100*time.Millisecond); d < time.Second || d >= 1050*time.Millisecond {
			t.Fatalf("Retry-After 1s with 1.1s left waits %s", d)
		}
	}
	if d := raJitter(time.Second, time.Minute, time.Second); d != time.Second {
		t.Errorf("Retry-After 1s with 1s left waits %s", d)
	}
}

// Through Do: under a deadline that leaves 100ms after a Retry-After of
// 1s, the wait takes at most half of that slack, so the retry keeps time
// to run; the debug log names both the wait and the Retry-After asked for.
func TestRetryAfterJitterUnderDeadline(t *testing.T) {
	t.Parallel()
	for range 20 {
		mock, _ := mockRoute(t, http.MethodGet, "/r", raReply(http.StatusTooManyRequests, "1"), reply{status: 200, body: `{}`})
		var logged bytes.Buffer
		tr, sl := newTestTransport(t, mock, func(c *Config) {
			c.Logger = slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
		})
		ctx, cancel := context.WithTimeout(t.Context(), 1100*time.Millisecond)
		err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/r", Class: Read}, nil)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if d := sl.all(); len(d) != 1 || d[0] < time.Second || d[0] > 1050*time.Millisecond {
			t.Fatalf("sleeps %v, want one within [1s, 1.05s]", d)
		}
		if !strings.Contains(logged.String(), "retry_after=1s") {
			t.Fatalf("retry log without the Retry-After asked for: %s", logged.String())
		}
	}
}
