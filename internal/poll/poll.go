// Package poll is the one polling loop of the SDK's waiters (an eval run,
// an environment build): delays that back off with jitter, a rate limit
// (an error matching shared.ErrRateLimited: RATE_LIMITED, or a 429 whose
// code the SDK does not know) waited out for its Retry-After (unless it
// exceeds the client's cap: then the error ends the wait, as it ends any
// call), and an immediate stop when the context ends, or when its deadline
// comes before the next poll would.
package poll

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/shared"
)

// Config is one wait's settings.
type Config struct {
	// Min and Max bound the delay between polls.
	Min, Max time.Duration
	// MaxRetryAfter is the client's cap: a longer Retry-After ends the wait.
	MaxRetryAfter time.Duration
	// Sleep waits d or until ctx ends; nil uses a timer (tests replace it).
	Sleep func(ctx context.Context, d time.Duration) error
	// Name says what is waited for ("waiting for run run_1"): the
	// context's error, when it ends the wait, reads "projectops: <Name>:
	// context canceled", as a call's names the call.
	Name string
}

// ended is err, a context's error that ended the wait, under c.Name;
// errors.Is still matches it.
func (c *Config) ended(err error) error {
	if c.Name == "" {
		return err
	}
	return fmt.Errorf("projectops: %s: %w", c.Name, err)
}

// Step is what one poll saw.
type Step struct {
	// Done ends the wait successfully.
	Done bool
	// Next, when positive, is the delay the caller wants before the next
	// poll (an estimate of the time left); it is kept within [Min, Max].
	// Zero lets the backoff decide.
	Next time.Duration
}

// Loop calls poll until it reports Done, returns an error other than a
// waitable rate limit, or ctx ends (its error is returned, under c.Name). It also
// ends at once, with context.DeadlineExceeded (under c.Name), when the next
// poll would come after ctx's deadline.
func Loop(ctx context.Context, c Config, poll func(ctx context.Context) (Step, error)) error {
	if ctx == nil {
		return apierr.NilContext()
	}
	sleep := c.Sleep
	if sleep == nil {
		sleep = Sleep
	}
	c.Max = max(c.Max, c.Min)
	bo := backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(c.Min), backoff.WithMaxInterval(c.Max),
		backoff.WithMultiplier(1.5), backoff.WithRandomizationFactor(0.2), backoff.WithMaxElapsedTime(0))
	bo.Reset()
	for {
		st, err := poll(ctx)
		wait := bo.NextBackOff()
		switch {
		case err != nil && ctx.Err() != nil:
			return c.ended(ctx.Err())
		case err != nil:
			// By what the error matches, not its code's text: a 429 with a
			// code the SDK does not know is a rate limit too (its status
			// says so, spec §7), as the transport retries it by status.
			e, ok := apierr.As(err)
			if !ok || !errors.Is(e, shared.ErrRateLimited) || e.RetryAfter > c.MaxRetryAfter {
				return err // above the client's cap the caller decides, as for any call
			}
			// Jitter only upwards: polling before Retry-After meets another 429.
			wait = max(e.RetryAfter, wait)
			wait += time.Duration(rand.Int64N(int64(wait/10) + 1))
		case st.Done:
			return nil
		case st.Next > 0:
			wait = min(max(st.Next, c.Min), c.Max)
			// The estimate decides while it lasts; when it lapses (a run
			// done but not yet final) polling starts again from Min, not
			// from a backoff that grew unseen.
			bo.Reset()
		}
		if err := ctx.Err(); err != nil {
			// The context ended while the poll was answered: its error
			// says why (a cancel is not a deadline).
			return c.ended(err)
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			// The next poll would come after the deadline: end now, with
			// the error the wait would end with then, as the transport's
			// retry waits and the client-side limiter do.
			return c.ended(context.DeadlineExceeded)
		}
		if err := sleep(ctx, wait); err != nil {
			return c.ended(err)
		}
	}
}

// Sleep waits d or until ctx ends, returning ctx's error then.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// NoStatus is the error a waiter ends with when a poll's answer has no
// status (a 200 with null, an empty body, an object without one): it is
// not the thing waited for, and polling it again would wait for ever.
// path is the route polled, as errors show it (redacted); what names the
// thing ("run", "build"); requestID is the answer's, already cleaned as
// error text is, of credential header values too
// (transport.WithShownRequestID; "" for none). It matches
// shared.ErrNoStatus.
func NoStatus(method, path, what, requestID string) error {
	msg := fmt.Sprintf("projectops: %s %s: the response carries no %s status (it is not a %s)", method, path, what, what)
	if requestID != "" {
		// As a *shared.Error prints its request id, for a support request.
		msg += fmt.Sprintf(" [request %s]", requestID)
	}
	return &noStatusError{msg}
}

// noStatusError is NoStatus's error: its own text, matching
// shared.ErrNoStatus, whose text would only repeat it.
type noStatusError struct{ msg string }

func (e *noStatusError) Error() string { return e.msg }
func (e *noStatusError) Unwrap() error { return shared.ErrNoStatus }
