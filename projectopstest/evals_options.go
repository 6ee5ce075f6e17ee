package projectopstest

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/projectops/projectops-go/evals"
)

// Eval engine defaults.
const (
	// DefaultEvalConcurrency is the real service's cap on runs in flight
	// per organization.
	DefaultEvalConcurrency = 2
	// DefaultEvalRunDeadline bounds a run; past it the run is timed_out
	// (under WithClock, also past it on the injected clock: see Clock).
	DefaultEvalRunDeadline = 10 * time.Minute
	// DefaultEvalParallelism is how many iterations of a run execute at
	// once.
	DefaultEvalParallelism = 4
	// NoTraceMarker in a test's title makes its iterations finish without
	// a stored trace (their trace reads 404 TRACE_NOT_AVAILABLE; steps
	// still answer).
	NoTraceMarker = "[no-trace]"
)

// DefaultHostedModels is the default hosted model catalog: the provider/name
// ids that run on the organization's credits (openai/gpt-4o-mini,
// anthropic/claude-sonnet-4.5, ...), the service's own at the reference
// date. It is filled when the package loads, from the model catalog
// bundled with the double's other data (which names its source).
var DefaultHostedModels []string

// The catalog is read from its embedded file, so its go doc shows a plain
// declaration, not an expression naming unexported helpers.
func init() { DefaultHostedModels = slices.Clone(bundledModels().Hosted) }

// InteractHandler performs an interact step. Without one, interact steps
// are recorded and reported as skipped.
type InteractHandler func(ctx context.Context, step evals.Step) error

// EvalHooks observe and steer the engine from tests. Every hook runs on an
// engine goroutine without the server's lock held.
type EvalHooks struct {
	// BeforeIteration runs before an iteration executes its steps. It may
	// block (its ctx ends when the run is cancelled, times out or the
	// server closes); an error fails the iteration with that message.
	BeforeIteration func(ctx context.Context, runID, iterationID string) error
	// RunFinished runs once a run is terminal, after its state is stored.
	RunFinished func(runID string, status evals.Status)
}

type evalOptions struct {
	model       Model
	hosted      []string
	concurrency int
	deadline    time.Duration
	parallelism int
	interact    InteractHandler
	traceDrop   float64
	hooks       EvalHooks
	maxRuns     int           // runs_cap.go
	stepDelay   time.Duration // evals_pacing.go
	// fireDeadline, when closed, passes every run's deadline at once: a
	// test's handle on where in a run the deadline lands (export_test.go).
	fireDeadline <-chan struct{}
}

func (o evalOptions) withDefaults() evalOptions {
	if o.model == nil {
		o.model = DefaultModel()
	}
	if o.hosted == nil {
		o.hosted = slices.Clone(DefaultHostedModels)
	}
	if o.concurrency == 0 {
		o.concurrency = DefaultEvalConcurrency
	}
	if o.deadline == 0 {
		o.deadline = DefaultEvalRunDeadline
	}
	if o.parallelism == 0 {
		o.parallelism = DefaultEvalParallelism
	}
	return o
}

// WithEvalModel sets the Model prompt steps go to (default DefaultModel).
func WithEvalModel(m Model) Option {
	return checked("WithEvalModel", m != nil, "nil model", func(o *options) { o.evals.model = m })
}

// WithHostedModels replaces the hosted model catalog (provider/name ids);
// with none, no model runs on credits.
func WithHostedModels(ids ...string) Option {
	return func(o *options) error {
		for _, id := range ids {
			if p, n, ok := splitModel(id); !ok || p == "" || n == "" {
				return errors.New("projectopstest: WithHostedModels: " + id + " is not provider/name")
			}
		}
		o.evals.hosted = append([]string{}, ids...) // non-nil: none given is an empty catalog, not the default
		return nil
	}
}

// WithEvalConcurrency sets how many runs may be in flight per organization
// (default 2); one more is refused with 429 CONCURRENT_RUN_LIMIT.
func WithEvalConcurrency(n int) Option {
	return checked("WithEvalConcurrency", n >= 1, "n must be at least 1", func(o *options) { o.evals.concurrency = n })
}

// WithEvalRunDeadline bounds every run; a run still executing after d is
// timed_out and its unfinished iterations cancelled (default 10 minutes),
// unless a server's tools could not be listed: that run ends failed, as
// the service's runner throws then. d is real time, and under WithClock
// also time on the injected clock: a run whose start plus d that clock
// has reached is timed out when the double next handles a request or a
// helper such as Wait is called (see Clock).
func WithEvalRunDeadline(d time.Duration) Option {
	return checked("WithEvalRunDeadline", d > 0, "d must be positive", func(o *options) { o.evals.deadline = d })
}

// WithEvalParallelism sets how many iterations of one run execute at once
// (default 4).
func WithEvalParallelism(n int) Option {
	return checked("WithEvalParallelism", n >= 1, "n must be at least 1", func(o *options) { o.evals.parallelism = n })
}

// WithInteractHandler makes interact steps run h instead of being skipped.
func WithInteractHandler(h InteractHandler) Option {
	return func(o *options) error {
		o.evals.interact = h
		return nil
	}
}

// WithEvalTraceDropRate makes a fraction (0 to 1) of iterations finish
// without a stored trace, spread evenly and deterministically over each
// run's iterations. Titles containing NoTraceMarker drop theirs too.
func WithEvalTraceDropRate(f float64) Option {
	return checked("WithEvalTraceDropRate", f >= 0 && f <= 1, "fraction must be within [0, 1]", func(o *options) { o.evals.traceDrop = f })
}

// WithEvalHooks installs engine hooks (tests).
func WithEvalHooks(h EvalHooks) Option {
	return func(o *options) error {
		o.evals.hooks = h
		return nil
	}
}
