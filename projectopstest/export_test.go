package projectopstest

// WithEvalRunDeadlineFire passes every run's deadline when fire is closed
// (as well as after WithEvalRunDeadline's d), so a test decides where in a
// run the deadline lands instead of racing a short real-time one.
func WithEvalRunDeadlineFire(fire <-chan struct{}) Option {
	return func(o *options) error {
		o.evals.fireDeadline = fire
		return nil
	}
}

// MarkRunThrew records on run runID what the executor records when one of
// the run's servers could not list its tools, so a test can place that
// where no executor step can be held (such a run runs no step).
func MarkRunThrew(s *Server, runID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.evals.runs[runID].threw = true
}

// RunThrew reports whether the executor recorded on run runID that a
// server's tools could not be listed.
func RunThrew(s *Server, runID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.evals.runs[runID].threw
}

// SuiteBody and RunBody are the types the double reads an eval-suite and
// an eval-run create body into, for tests that walk their fields.
type (
	SuiteBody = suiteBody
	RunBody   = runBody
)

// CloseBegun reports whether s's Close has begun and, with a listener,
// cut the loopback streams already answered.
func CloseBegun(s *Server) bool {
	s.life.Lock()
	closed, hs := s.closed, s.httpSrv
	s.life.Unlock()
	if !closed || hs == nil {
		return closed
	}
	s.streams.mu.Lock()
	defer s.streams.mu.Unlock()
	return s.streams.closing
}
