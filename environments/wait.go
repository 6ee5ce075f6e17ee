package environments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/projectops/projectops-go/internal/apierr"
)

// Polling defaults of WaitForBuild.
const (
	DefaultWaitInterval    = 500 * time.Millisecond
	DefaultWaitMaxInterval = 15 * time.Second
)

// WaitOptions tunes WaitForBuild; nil or the zero value uses the defaults.
type WaitOptions struct {
	// Interval is the delay before the second poll (default
	// DefaultWaitInterval); later delays grow by half each time, with
	// jitter, up to MaxInterval (default DefaultWaitMaxInterval).
	Interval, MaxInterval time.Duration
	// Progress, when set, is called on the polling goroutine with the build
	// as first seen and again each time its status or log preview changes.
	Progress func(Build)
}

// ErrBuildFailed matches (errors.Is) the error WaitForBuild returns for a
// build that ended failed.
var ErrBuildFailed = errors.New("environments: build failed")

// BuildError is the error WaitForBuild returns when the build failed. It
// matches ErrBuildFailed.
type BuildError struct {
	// Build is the failed build; Build.Error says why.
	Build *Build
}

// Error implements error.
func (e *BuildError) Error() string {
	msg := "environments: build " + e.Build.ID + " failed"
	if e.Build.Error != "" {
		msg += ": " + e.Build.Error
	}
	return msg
}

// Is reports whether target is ErrBuildFailed.
func (e *BuildError) Is(target error) bool { return target == ErrBuildFailed }

// WaitForBuild polls the environment's builds until build buildID is
// terminal and returns it. A failed build is returned together with a
// *BuildError (errors.Is(err, ErrBuildFailed)). It stops as soon as ctx ends,
// returning ctx's error. Polls back off exponentially; a RATE_LIMITED answer
// is not an error here but a reason to wait at least its Retry-After before
// the next poll, unless it exceeds the client's WithMaxRetryAfter cap: that
// error ends the wait, as it ends any call. Any other error ends the wait:
// NOT_FOUND, for instance, when the environment was deleted.
func (s *Service) WaitForBuild(ctx context.Context, projectID, environmentID, buildID string, o *WaitOptions) (*Build, error) {
	if buildID == "" {
		return nil, apierr.Invalid("buildId", "buildId is required")
	}
	var opt WaitOptions
	if o != nil {
		opt = *o
	}
	if opt.Interval <= 0 {
		opt.Interval = DefaultWaitInterval
	}
	if opt.MaxInterval <= 0 {
		opt.MaxInterval = DefaultWaitMaxInterval
	}
	opt.MaxInterval = max(opt.MaxInterval, opt.Interval)
	bo := backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(opt.Interval),
		backoff.WithMaxInterval(opt.MaxInterval),
		backoff.WithMultiplier(1.5),
		backoff.WithRandomizationFactor(0.2),
		backoff.WithMaxElapsedTime(0),
	)
	bo.Reset()
	var last *Build
	for {
		b, err := s.findBuild(ctx, projectID, environmentID, buildID)
		wait := bo.NextBackOff()
		switch {
		case err == nil:
			if opt.Progress != nil && (last == nil || last.Status != b.Status || last.LogPreview != b.LogPreview) {
				opt.Progress(*b)
			}
			last = b
			if b.Status == BuildFailed {
				return b, &BuildError{Build: b}
			}
			if b.Status.Terminal() {
				return b, nil
			}
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.Is(err, apierr.ErrRateLimited):
			if e, ok := apierr.As(err); ok {
				if e.RetryAfter > s.t.MaxRetryAfter() {
					// Above the client's cap the caller decides, as for any call.
					return nil, err
				}
				wait = max(wait, e.RetryAfter)
			}
		default:
			return nil, err
		}
		if err := s.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// findBuild returns build buildID from the builds listing (newest first, so
// usually on the first page).
func (s *Service) findBuild(ctx context.Context, projectID, environmentID, buildID string) (*Build, error) {
	for b, err := range s.AllBuilds(ctx, projectID, environmentID, nil) {
		if err != nil {
			return nil, err
		}
		if b.ID == buildID {
			return &b, nil
		}
	}
	return nil, &apierr.Error{Code: apierr.CodeNotFound,
		Message: fmt.Sprintf("build %q is not among the environment's builds", buildID)}
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
