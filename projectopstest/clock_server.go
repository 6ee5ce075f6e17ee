package projectopstest

// clockMoved applies the injected clock's reading after a Clock step: the
// rate limiter takes it as the new origin if it went back.
func (s *Server) clockMoved() {
	now := s.now()
	s.limiter.Observe(now)
}

// stalledClockHint ends a 429's message when the injected clock has not
// moved since the key's previous request: waiting out Retry-After in real
// time cannot help then.
const stalledClockHint = "(projectopstest: the injected clock (WithClock) has not moved since this key's previous request; step it, or turn the limit off with WithRateLimit(0, 0).)"
