package environments

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/poll"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// Polling defaults of WaitForBuild.
const (
	DefaultPollMin = 500 * time.Millisecond
	DefaultPollMax = 15 * time.Second
)

// WaitOption configures WaitForBuild (the same style as evals' Wait).
type WaitOption func(*waitConfig)

type waitConfig struct {
	min, max time.Duration
	progress func(*Build)
	req      []option.RequestOption
}

// WithRequestOptions gives every poll request opts (headers, a timeout or
// retry override, option.WithResponseInto for the last poll's metadata).
// It keeps a copy of opts: reusing the slice afterwards changes nothing.
func WithRequestOptions(opts ...option.RequestOption) WaitOption {
	opts = slices.Clone(opts)
	return func(c *waitConfig) { c.req = append(c.req, opts...) }
}

// WithPollInterval bounds the delay between polls (defaults
// DefaultPollMin and DefaultPollMax); delays grow by half each
// time, with jitter. Values below 1ms are raised to 1ms; max is raised to
// min.
func WithPollInterval(lo, hi time.Duration) WaitOption {
	return func(c *waitConfig) {
		c.min = max(lo, time.Millisecond)
		c.max = max(hi, c.min)
	}
}

// WithProgress calls fn on the polling goroutine with the build as first
// seen and again each time its status or log preview changes (a copy: what
// fn does to it changes nothing). It mirrors evals.WithProgress, which
// takes a func(*evals.Run) and gives an evals.WaitOption: each option goes
// to its own package's wait only (WaitForBuild here, Runs.Wait there).
func WithProgress(fn func(*Build)) WaitOption { return func(c *waitConfig) { c.progress = fn } }

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
	if e.Build == nil { // a zero value, as errors.As leaves a target
		return "environments: build failed"
	}
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
// returning the last build seen (nil before the first answer) and ctx's
// error ("projectops: waiting for build bld_1: context canceled"), as
// evals' Runs.Wait does; it also returns early, with the last
// build seen and an error matching context.DeadlineExceeded, when its next
// poll would come after ctx's deadline. Polls back off exponentially; a
// rate limit (an error matching shared.ErrRateLimited: RATE_LIMITED, or a
// 429 whose code the SDK does not know) is not an error here but a reason
// to wait at least its Retry-After before the next poll, unless it exceeds
// the client's option.WithMaxRetryAfter cap: that error ends the wait, as
// it ends any call. Any other error ends the wait:
// NOT_FOUND, for instance, when the environment was deleted (or the
// listing, empty or null, does not hold the build). So does a build listed
// without a status, which no poll would see turn terminal: the error names
// the route and the answer's request id ("the response carries no build
// status ... [request req_1]") and matches shared.ErrNoStatus; the
// last build seen is returned with it.
func (s *Service) WaitForBuild(ctx context.Context, projectID, environmentID, buildID string, opts ...WaitOption) (*Build, error) {
	c := waitConfig{min: DefaultPollMin, max: DefaultPollMax}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	// Reset before anything can end the wait without a poll (no build id,
	// a nil context): the target then describes no request, not the call
	// before the wait.
	transport.ResetTargets(c.req)
	if buildID == "" {
		return nil, apierr.Invalid("buildId", "buildId is required")
	}
	if s == nil {
		s = new(Service) // a zero Client's: its first poll fails as an unconfigured client
	}
	// The polls store their answer's request id as error text shows it,
	// so a build without a status is reported with the id of the page
	// that listed it: a WithResponseInto target's id, a success's, is not
	// cleaned of credential header values.
	var requestID string
	ctx = transport.WithShownRequestID(ctx, &requestID)
	var last *Build
	err := poll.Loop(ctx, poll.Config{Min: c.min, Max: c.max, MaxRetryAfter: s.tr().MaxRetryAfter(), Sleep: s.sleep,
		Name: "waiting for build " + s.tr().Redact(buildID)},
		func(ctx context.Context) (poll.Step, error) {
			b, err := s.findBuild(ctx, projectID, environmentID, buildID, c.req)
			if err != nil {
				return poll.Step{}, err
			}
			if b.Status == "" {
				// No status will ever turn terminal: waiting on would
				// never end.
				path, _ := transport.BuildPath(routeBuilds, []string{projectID, environmentID})
				return poll.Step{}, poll.NoStatus(http.MethodGet, s.tr().Redact(path), "build", requestID)
			}
			if c.progress != nil && (last == nil || last.Status != b.Status || last.LogPreview != b.LogPreview) {
				cp := *b
				cp.BaseImageDigests = slices.Clone(b.BaseImageDigests) // a copy shares nothing with the result
				c.progress(&cp)
			}
			last = b
			return poll.Step{Done: b.Status.Terminal()}, nil
		})
	switch {
	case err != nil:
		return last, err // the last build seen, as evals.Runs.Wait returns its run
	case last.Status == BuildFailed:
		return last, &BuildError{Build: last}
	}
	return last, nil
}

// findBuild returns build buildID from the builds listing (newest first, so
// usually on the first page).
func (s *Service) findBuild(ctx context.Context, projectID, environmentID, buildID string, req []option.RequestOption) (*Build, error) {
	for b, err := range s.AllBuilds(ctx, projectID, environmentID, nil, req...) {
		if err != nil {
			return nil, err
		}
		if b.ID == buildID {
			return &b, nil
		}
	}
	return nil, &shared.Error{Code: shared.CodeNotFound,
		Message: fmt.Sprintf("build %q is not among the environment's builds", buildID)}
}
