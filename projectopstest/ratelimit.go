package projectopstest

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// keyLimiter is the per-key token bucket. It runs on the server's clock, not
// the wall clock, so tests drive refills by stepping an injected clock.
type keyLimiter struct {
	mu        sync.Mutex
	perMinute int
	burst     int
	byKey     map[string]*rate.Limiter
}

func newKeyLimiter(perMinute, burst int) *keyLimiter {
	return &keyLimiter{perMinute: perMinute, burst: burst, byKey: map[string]*rate.Limiter{}}
}

// wait takes a token for keyID at now. It returns 0 when the request may
// proceed, else how long until a token is available (and takes nothing).
func (l *keyLimiter) wait(keyID string, now time.Time) time.Duration {
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
