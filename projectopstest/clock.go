package projectopstest

import (
	"sync"
	"time"
)

// Clock is a settable clock for WithClock, safe for concurrent use: tests
// step it instead of sleeping. With WithClock(clock.Now) it drives, besides
// every timestamp the double writes and the Date of its API answers:
//
//   - the per-key rate limiter: Retry-After is on this clock, so a stopped
//     clock refuses a key's calls past the burst for ever (step it, or turn
//     the limit off with WithRateLimit(0, 0)); a reading earlier than a
//     key's previous one is its bucket's new origin, from which the time
//     stepped forward refills it;
//   - eval run deadlines (WithEvalRunDeadline, DefaultEvalRunDeadline): a
//     run whose start plus the deadline the clock has reached is timed out;
//   - idle expiry of kept MCP sessions (WithMCPIdleTimeout): a session
//     whose last use plus the idle timeout the clock has reached is closed.
//
// Stepping a Clock does nothing by itself: the double reads its clock
// only as it handles a request or a helper such as Wait or MCPSessions is
// called, and it then applies the deadlines and idle timeouts that reading
// has passed, before the request itself (so a cancel then finds the run
// timed out) or the helper's work (Wait keeps reading it while it waits),
// and as a run finishes (a hook that stepped past the deadline times its
// run out). Any clock function behaves so, and one
// may itself step a Clock (one that ticks on every read). Real time still
// bounds runs and idle sessions too, by the same spans.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a Clock stopped at start.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now returns the clock's time; pass it to WithClock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d. A server reading it notices at
// its next request or helper call (see Clock).
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Set moves the clock to t, earlier or later. A server reading it notices
// at its next request or helper call (see Clock).
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}
