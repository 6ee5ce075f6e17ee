// Package keylimit is the double's per-key rate limit: a token bucket per
// API key on the server's clock, so tests drive refills by stepping an
// injected clock.
package keylimit

import (
	"sync"
	"time"
)

// Limiter is the per-key token bucket; safe for concurrent use.
//
// Time is whatever the caller passes, an injected clock that a test may set
// back: a reading earlier than a bucket's last one is a new origin (no
// negative elapsed time, and the tokens it holds kept), from which time
// stepped forward refills again.
type Limiter struct {
	mu       sync.Mutex
	interval time.Duration // one token per interval
	burst    float64
	byKey    map[string]*bucket
}

// bucket is one key's tokens as of last.
type bucket struct {
	tokens float64
	last   time.Time
	asked  time.Time // the reading of the key's previous request
}

// New returns a limiter of perMinute requests per key with burst; a
// perMinute of 0 or less admits everything.
func New(perMinute, burst int) *Limiter {
	l := &Limiter{burst: float64(burst), byKey: map[string]*bucket{}}
	if perMinute > 0 {
		l.interval = time.Minute / time.Duration(perMinute)
	}
	return l
}

// Enabled reports whether the limiter limits at all (a caller can then skip
// reading the clock).
func (l *Limiter) Enabled() bool { return l.interval > 0 }

// Wait takes a token for keyID at now. It returns 0 when the request may
// proceed, else how long until a token is available (and takes nothing);
// stalled then reports that now is the very reading of keyID's previous
// request, so no waiting can help a caller whose clock does not move.
func (l *Limiter) Wait(keyID string, now time.Time) (wait time.Duration, stalled bool) {
	if !l.Enabled() {
		return 0, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.byKey[keyID]
	if b == nil {
		b = &bucket{tokens: l.burst, last: now, asked: now}
		l.byKey[keyID] = b
	}
	stalled, b.asked = now.Equal(b.asked), now
	l.refill(b, now)
	if b.tokens >= 1 {
		b.tokens--
		return 0, false
	}
	wait = time.Duration((1 - b.tokens) * float64(l.interval))
	return max(wait, 1), stalled
}

// refill adds the tokens earned since b.last, up to the burst, and makes
// now b's origin (an earlier now earns nothing).
func (l *Limiter) refill(b *bucket, now time.Time) {
	if d := now.Sub(b.last); d > 0 {
		b.tokens = min(l.burst, b.tokens+float64(d)/float64(l.interval))
	}
	b.last = now
}
