package evals

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/projectops/projectops-go/internal/poll"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/option"
)

// Default polling bounds of Wait.
const (
	DefaultPollMin = 500 * time.Millisecond
	DefaultPollMax = 10 * time.Second
)

// WaitOption configures Wait.
type WaitOption func(*waitConfig)

type waitConfig struct {
	min, max time.Duration
	progress func(*Run)
	req      []option.RequestOption
}

// WithRequestOptions gives every poll request opts (headers, a timeout or
// retry override, option.WithResponseInto for the last poll's metadata).
// It keeps a copy of opts: reusing the slice afterwards changes nothing.
func WithRequestOptions(opts ...option.RequestOption) WaitOption {
	opts = slices.Clone(opts)
	return func(c *waitConfig) { c.req = append(c.req, opts...) }
}

// WithProgress calls fn (on Wait's goroutine) with the run each time a poll
// shows it changed: its status or its summary counts. fn gets a copy: what
// it does to it changes neither Wait's result nor when Wait ends.
func WithProgress(fn func(*Run)) WaitOption { return func(c *waitConfig) { c.progress = fn } }

// WithPollInterval bounds the delay between polls (defaults DefaultPollMin
// and DefaultPollMax). Values below 1ms are raised to 1ms; max is raised to
// min.
func WithPollInterval(lo, hi time.Duration) WaitOption {
	return func(c *waitConfig) {
		c.min = max(lo, time.Millisecond)
		c.max = max(hi, c.min)
	}
}

// Wait polls the run until it is terminal (completed, failed, cancelled or
// timed out) and returns it. Delays start at the minimum interval and grow
// exponentially (by half, with jitter); once the run reports progress,
// Wait aims at half the estimated remaining time, so a long run costs few
// polls and a finishing run is noticed within about the minimum interval.
// A rate limit (an error matching shared.ErrRateLimited: RATE_LIMITED, or
// a 429 whose code the SDK does not know) is waited out (its Retry-After
// at least) and polling continues, unless the Retry-After exceeds the
// client's option.WithMaxRetryAfter cap: that error ends Wait, as it ends
// any call. Wait returns as soon as ctx ends, with the last run seen and
// ctx's error, named as a call's is ("projectops: waiting for run run_1:
// context canceled"; errors.Is matches it). It also returns early, with
// the last run seen and an error matching context.DeadlineExceeded, when
// its next poll would come after ctx's deadline (waiting for it could only
// end at the deadline). Any other error ends it too, and so does an answer
// that is no run: a 200 whose body is empty, null or an object without a
// status (which Get returns as a zero Run, as any call leaves its result
// as it is for an empty body) ends Wait with an error naming the route
// and the answer's request id ("the response carries no run status ...
// [request req_1]"), matching shared.ErrNoStatus, and the last run
// seen.
func (s *RunService) Wait(ctx context.Context, projectID, runID string, opts ...WaitOption) (*Run, error) {
	c := waitConfig{min: DefaultPollMin, max: DefaultPollMax}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	// Reset before anything can end the wait without a poll (a nil
	// context): the target then describes no request, not the call
	// before Wait.
	transport.ResetTargets(c.req)
	// The polls store their answer's request id as error text shows it,
	// so an answer without a status is reported with it: a WithResponseInto
	// target's id, a success's, is not cleaned of credential header values.
	var requestID string
	ctx = transport.WithShownRequestID(ctx, &requestID)
	var last *Run
	est := estimator{}
	err := poll.Loop(ctx, poll.Config{Min: c.min, Max: c.max, MaxRetryAfter: s.tr().MaxRetryAfter(),
		Name: "waiting for run " + s.tr().Redact(runID)},
		func(ctx context.Context) (poll.Step, error) {
			run, err := s.Get(ctx, projectID, runID, c.req...)
			if err != nil {
				return poll.Step{}, err
			}
			if run.Status == "" {
				// An empty or null body leaves a zero Run: no status will
				// ever turn terminal, so waiting on would never end.
				path, _ := transport.BuildPath(routeRun, []string{projectID, runID})
				return poll.Step{}, poll.NoStatus(http.MethodGet, s.tr().Redact(path), "run", requestID)
			}
			if c.progress != nil && changed(last, run) {
				cp := *run
				if run.Summary != nil {
					s := *run.Summary
					cp.Summary = &s
				}
				c.progress(&cp)
			}
			last = run
			if run.Status.Terminal() {
				return poll.Step{Done: true}, nil
			}
			if eta, ok := est.remaining(run, time.Now()); ok {
				return poll.Step{Next: eta / 2}, nil
			}
			return poll.Step{}, nil
		})
	if err != nil {
		return last, err
	}
	return last, nil
}

// estimator predicts the time a run needs to finish from the rate at which
// its iterations finished since the first poll.
type estimator struct {
	t0    time.Time
	done0 int
	set   bool
}

func (e *estimator) remaining(r *Run, now time.Time) (time.Duration, bool) {
	if r.Summary == nil || r.Summary.Total <= 0 {
		return 0, false
	}
	done := r.Summary.Passed + r.Summary.Failed
	if !e.set {
		e.t0, e.done0, e.set = now, done, true
		return 0, false
	}
	if done <= e.done0 || done >= r.Summary.Total {
		return 0, false
	}
	per := now.Sub(e.t0) / time.Duration(done-e.done0)
	return per * time.Duration(r.Summary.Total-done), true
}

func changed(prev, cur *Run) bool {
	if prev == nil || prev.Status != cur.Status {
		return true
	}
	if (prev.Summary == nil) != (cur.Summary == nil) {
		return true
	}
	return prev.Summary != nil && *prev.Summary != *cur.Summary
}
