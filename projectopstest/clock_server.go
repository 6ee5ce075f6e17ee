package projectopstest

import (
	"context"
	"time"
)

// checkClock applies the injected clock's reading, for a helper that
// reads run state or sessions; without WithClock it does nothing (real
// time needs no help).
func (s *Server) checkClock() {
	if s.dated {
		s.applyClock(s.now())
	}
}

// applyClock applies now, a reading of the injected clock, on the
// caller's goroutine: kept MCP sessions idle for the idle timeout close,
// and the runs whose deadline it passed time out before it returns. No
// Clock step calls it: the double has no way to read a clock function
// from another goroutine safely, and a clock that steps a Clock would
// recurse.
func (s *Server) applyClock(now time.Time) {
	s.mcp.ExpireIdle(now)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ev.passDeadlinesLocked(now)
}

// stalledClockHint ends a 429's message when the injected clock has not
// moved since the key's previous request: waiting out Retry-After in real
// time cannot help then.
const stalledClockHint = "(projectopstest: the injected clock (WithClock) has not moved since this key's previous request; step it, or turn the limit off with WithRateLimit(0, 0).)"

// clockDeadline is a run's deadline on the injected clock, and the run's
// context that passing it cancels.
type clockDeadline struct {
	at     time.Time
	ctx    context.Context
	cancel context.CancelCauseFunc
}

// deadlineOnClockLocked makes run's ctx also end as its deadline does once
// the injected clock, read by applyClock, reaches the run's start plus the
// run deadline. The real-time deadline stays, as a bound for a clock that
// is read too seldom. Call with Server.mu held.
func (e *evalEngine) deadlineOnClockLocked(ctx context.Context, cancel context.CancelFunc, run *evalRunRec) (context.Context, context.CancelFunc) {
	cctx, cancelCause := context.WithCancelCause(ctx)
	if e.onClock == nil {
		e.onClock = map[*evalRunRec]clockDeadline{}
	}
	e.onClock[run] = clockDeadline{at: e.s.now().Add(e.opts.deadline), ctx: cctx, cancel: cancelCause}
	return cctx, func() { cancelCause(nil); cancel() }
}

// passDeadlinesLocked times out the runs whose deadline now passed: their
// context ends with the cause context.DeadlineExceeded at once, under
// Server.mu as a cancel's check is, so a cancel after this finds the run
// timed out whether or not its executor has noticed. It forgets the runs
// that ended otherwise. Call with Server.mu held.
func (e *evalEngine) passDeadlinesLocked(now time.Time) {
	for run, d := range e.onClock {
		switch {
		case d.ctx.Err() != nil:
			delete(e.onClock, run)
		case !now.Before(d.at):
			d.cancel(context.DeadlineExceeded)
			delete(e.onClock, run)
		}
	}
}
