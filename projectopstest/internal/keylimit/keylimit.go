// Package keylimit is the double's per-key rate limit: a token bucket per
// API key on the server's clock, so tests drive refills by stepping an
// injected clock.
package keylimit

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limiter is the per-key token bucket; safe for concurrent use.
type Limiter struct {
	mu        sync.Mutex
	perMinute int
	burst     int
	byKey     map[string]*rate.Limiter
}

// New returns a limiter of perMinute requests per key with burst; a
// perMinute of 0 or less admits everything.
func New(perMinute, burst int) *Limiter {
	return &Limiter{perMinute: perMinute, burst: burst, byKey: map[string]*rate.Limiter{}}
}

// Enabled reports whether the limiter limits at all (a caller can then skip
// reading the clock).
func (l *Limiter) Enabled() bool { return l.perMinute > 0 }

// Wait takes a token for keyID at now. It returns 0 when the request may
// proceed, else how long until a token is available (and takes nothing).
func (l *Limiter) Wait(keyID string, now time.Time) time.Duration {
	if l.perMinute <= 0 {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	lim := l.byKey[keyID]
	if lim == nil {
		lim = rate.NewLimiter(rate.Every(time.Minute/time.Duration(l.perMinute)), l.burst)
		l.byKey[keyID] = lim
	}
	res := lim.ReserveN(now, 1)
	if !res.OK() {
		return time.Minute
	}
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now) // a refused request must not consume the future token
		return d
	}
	return 0
}
