package projectopstest

import (
	"time"
)

// WithEvalStepDelay paces eval runs on the real clock: every authored step
// (a prompt, a tool call, an interaction, an assertion) takes at least d.
// A client in another process can then watch a run go through its states,
// cancel it in flight and meet the concurrency cap, as against the
// service. The default is 0: runs go as fast as their steps do.
func WithEvalStepDelay(d time.Duration) Option {
	return checked("WithEvalStepDelay", d >= 0, "negative delay", func(o *options) { o.evals.stepDelay = d })
}
