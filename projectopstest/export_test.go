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
