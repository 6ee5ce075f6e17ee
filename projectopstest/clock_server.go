package projectopstest

import (
	"context"
	"sync"
	"time"
)

// clockMoved applies the injected clock's reading after a Clock step: the
// rate limiter takes it as the new origin if it went back, kept MCP
// sessions idle for the idle timeout close, and the runs whose deadline it
// passed time out.
func (s *Server) clockMoved() {
	now := s.now()
	s.limiter.Observe(now)
	s.mcp.ExpireIdle()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ev.passDeadlinesLocked(now)
}

// stalledClockHint ends a 429's message when the injected clock has not
// moved since the key's previous request: waiting out Retry-After in real
// time cannot help then.
const stalledClockHint = "(projectopstest: the injected clock (WithClock) has not moved since this key's previous request; step it, or turn the limit off with WithRateLimit(0, 0).)"

// clockDeadline is a run's deadline on the injected clock, and what passes
// it.
type clockDeadline struct {
	at   time.Time
	fire func()
}

// deadlineOnClockLocked makes run's ctx also end as its deadline does once
// a Clock step brings the injected clock to the run's start plus the run
// deadline. The real-time deadline stays, as a bound for a clock that is
// not a Clock (read only on demand). Call with Server.mu held.
func (e *evalEngine) deadlineOnClockLocked(ctx context.Context, cancel context.CancelFunc, run *evalRunRec) (context.Context, context.CancelFunc) {
	fire := make(chan struct{})
	var once sync.Once
	ctx, cancel = deadlineOn(ctx, cancel, fire)
	if e.onClock == nil {
		e.onClock = map[*evalRunRec]clockDeadline{}
	}
	e.onClock[run] = clockDeadline{at: e.s.now().Add(e.opts.deadline), fire: func() { once.Do(func() { close(fire) }) }}
	context.AfterFunc(ctx, func() {
		e.s.mu.Lock()
		defer e.s.mu.Unlock()
		delete(e.onClock, run)
	})
	return ctx, cancel
}

// passDeadlinesLocked times out the runs whose deadline now passed. Call
// with Server.mu held.
func (e *evalEngine) passDeadlinesLocked(now time.Time) {
	for run, d := range e.onClock {
		if !now.Before(d.at) {
			d.fire()
			delete(e.onClock, run)
		}
	}
}
