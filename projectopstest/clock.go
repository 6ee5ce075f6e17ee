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
//     the limit off with WithRateLimit(0, 0)); a clock Set back is the
//     buckets' new origin, from which the time stepped forward refills them;
//   - eval run deadlines (WithEvalRunDeadline, DefaultEvalRunDeadline): an
//     Advance or Set that brings the clock to a run's start plus the
//     deadline times the run out (the run then ends in the background:
//     Server.Wait waits for it);
//   - idle expiry of kept MCP sessions (WithMCPIdleTimeout): an Advance or
//     Set that brings the clock to a session's last use plus the idle
//     timeout closes it (MCPSessions drops before the step returns).
//
// Real time still bounds runs and idle sessions too, by the same spans. A
// clock function other than a Clock's Now is read only when the double
// needs the time: the deadlines and idle timeouts it passes are not
// noticed until some Clock is stepped.
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

// Advance moves the clock forward by d, and applies what that passes (see
// Clock) before it returns.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
	clockMoved()
}

// Set moves the clock to t, earlier or later, and applies what that
// passes (see Clock) before it returns.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
	clockMoved()
}

// clockServers are the open servers with an injected clock. A Clock cannot
// tell which of them read it (WithClock takes a function), so every step
// of any Clock has each of them look at its own clock: one that did not
// move finds nothing to do.
var clockServers struct {
	mu sync.Mutex
	m  map[*Server]struct{}
}

// watchClock has s follow Clock steps until unwatchClock.
func watchClock(s *Server) {
	clockServers.mu.Lock()
	defer clockServers.mu.Unlock()
	if clockServers.m == nil {
		clockServers.m = map[*Server]struct{}{}
	}
	clockServers.m[s] = struct{}{}
}

func unwatchClock(s *Server) {
	clockServers.mu.Lock()
	defer clockServers.mu.Unlock()
	delete(clockServers.m, s)
}

// clockMoved has every watching server apply its clock's reading. It runs
// outside every Clock's lock, since the servers read their clocks.
func clockMoved() {
	clockServers.mu.Lock()
	ss := make([]*Server, 0, len(clockServers.m))
	for s := range clockServers.m {
		ss = append(ss, s)
	}
	clockServers.mu.Unlock()
	for _, s := range ss {
		s.clockMoved()
	}
}
