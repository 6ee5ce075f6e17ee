package poll

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/projectops/projectops-go/shared"
)

func TestLoop(t *testing.T) {
	t.Parallel()
	var slept []time.Duration
	c := Config{Min: time.Second, Max: 8 * time.Second, MaxRetryAfter: time.Minute,
		Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }}
	n := 0
	err := Loop(t.Context(), c, func(context.Context) (Step, error) {
		n++
		switch n {
		case 1, 2:
			return Step{}, nil
		case 3:
			return Step{}, &shared.Error{Code: shared.CodeRateLimited, RetryAfter: 20 * time.Second}
		case 4:
			return Step{Next: time.Hour}, nil
		}
		return Step{Done: true}, nil
	})
	if err != nil || n != 5 || len(slept) != 4 {
		t.Fatalf("err %v after %d polls, slept %v", err, n, slept)
	}
	// 1 s, then 1.5 s, each ±20%: the second is within 1.2–1.8 s whatever
	// the first drew (comparing the two failed when their jitter met).
	if slept[0] < 800*time.Millisecond || slept[0] > 1200*time.Millisecond ||
		slept[1] < 1200*time.Millisecond || slept[1] > 1800*time.Millisecond {
		t.Errorf("no backoff: %v", slept)
	}
	if slept[2] < 20*time.Second || slept[2] > 22*time.Second {
		t.Errorf("Retry-After not honoured (upwards only): %v", slept[2])
	}
	if slept[3] != 8*time.Second {
		t.Errorf("an estimate is kept within Max: %v", slept[3])
	}
}

func TestLoopStops(t *testing.T) {
	t.Parallel()
	c := Config{Min: time.Millisecond, Max: time.Millisecond, MaxRetryAfter: time.Second}
	over := &shared.Error{Code: shared.CodeRateLimited, RetryAfter: time.Hour}
	if err := Loop(t.Context(), c, func(context.Context) (Step, error) { return Step{}, over }); err != over {
		t.Errorf("a Retry-After over the cap: %v", err)
	}
	boom := errors.New("boom")
	if err := Loop(t.Context(), c, func(context.Context) (Step, error) { return Step{}, boom }); err != boom {
		t.Errorf("another error: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := Loop(ctx, c, func(context.Context) (Step, error) { return Step{}, nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("an ended context: %v", err)
	}
}

// An estimate's delays do not grow the backoff behind it: when the
// estimate lapses the next delay is about Min again (a finishing run was
// noticed up to Max late).
func TestLoopEstimateKeepsBackoffAtMin(t *testing.T) {
	t.Parallel()
	var slept []time.Duration
	c := Config{Min: time.Second, Max: time.Minute, MaxRetryAfter: time.Minute,
		Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }}
	n := 0
	err := Loop(t.Context(), c, func(context.Context) (Step, error) {
		n++
		switch {
		case n <= 10:
			return Step{Next: 5 * time.Second}, nil
		case n == 11:
			return Step{}, nil // the estimate lapsed: done, not yet final
		}
		return Step{Done: true}, nil
	})
	if err != nil || len(slept) != 11 {
		t.Fatalf("err %v, slept %v", err, slept)
	}
	if last := slept[10]; last < 800*time.Millisecond || last > 1200*time.Millisecond {
		t.Errorf("delay after the estimate lapsed = %v, want about Min (1s ±20%%)", last)
	}
}

// A wait that would end after the context's deadline is not slept: Loop
// returns at once with the error the wait would end with at the deadline.
// No timing is measured: Sleep must not be called at all.
func TestLoopWaitPastDeadlineReturnsAtOnce(t *testing.T) {
	t.Parallel()
	for name, step := range map[string]func() (Step, error){
		"backoff":  func() (Step, error) { return Step{}, nil },
		"estimate": func() (Step, error) { return Step{Next: 3 * time.Hour}, nil },
		"Retry-After": func() (Step, error) {
			return Step{}, &shared.Error{Code: shared.CodeRateLimited, RetryAfter: 2 * time.Hour}
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var slept []time.Duration
			c := Config{Min: 90 * time.Minute, Max: 4 * time.Hour, MaxRetryAfter: 3 * time.Hour,
				// A sleep ends the loop (with an error of its own), so a wait
				// that is slept fails the test at once.
				Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return errors.New("slept") }}
			ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
			defer cancel()
			n := 0
			err := Loop(ctx, c, func(context.Context) (Step, error) { n++; return step() })
			if !errors.Is(err, context.DeadlineExceeded) || n != 1 || len(slept) != 0 {
				t.Errorf("err %v after %d polls, slept %v; want context.DeadlineExceeded at once", err, n, slept)
			}
			if ctx.Err() != nil {
				t.Errorf("the wait ran until its deadline")
			}
		})
	}
}

// A context cancelled while a poll is answered ends the loop with
// context.Canceled, as ctx.Err() says, though it also has a deadline (as
// most callers' do) that comes before the next poll: the early return is
// for a deadline that will pass, not one that never will.
func TestLoopCancelledWithDeadlineReportsCanceled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
	defer cancel()
	c := Config{Min: 2 * time.Hour, Max: 4 * time.Hour,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}
	err := Loop(ctx, c, func(context.Context) (Step, error) {
		cancel() // the caller gives up while the poll is answered
		return Step{}, nil
	})
	if !errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v; ctx.Err() = %v; want context.Canceled", err, ctx.Err())
	}
}

// Every way the context ends a named wait reads "projectops: <Name>:
// <context's error>", as a call's error names the call, and matches the
// context's error.
func TestLoopNamesTheWait(t *testing.T) {
	t.Parallel()
	const prefix = "projectops: waiting for x: "
	cancelled := func() context.Context {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		return ctx
	}
	soon, stop := context.WithTimeout(t.Context(), time.Hour)
	defer stop()
	for _, tc := range []struct {
		name  string
		ctx   context.Context
		poll  func(context.Context) (Step, error)
		sleep func(context.Context, time.Duration) error
		want  error
	}{
		{"poll failed as the context ended", cancelled(),
			func(ctx context.Context) (Step, error) { return Step{}, fmt.Errorf("call: %w", ctx.Err()) }, nil, context.Canceled},
		{"context ended while polled", cancelled(),
			func(context.Context) (Step, error) { return Step{}, nil }, nil, context.Canceled},
		{"next poll past the deadline", soon,
			func(context.Context) (Step, error) { return Step{Next: 2 * time.Hour}, nil }, nil, context.DeadlineExceeded},
		{"ended while sleeping", t.Context(),
			func(context.Context) (Step, error) { return Step{}, nil },
			func(context.Context, time.Duration) error { return context.Canceled }, context.Canceled},
	} {
		c := Config{Min: time.Millisecond, Max: 3 * time.Hour, Name: "waiting for x", Sleep: tc.sleep}
		err := Loop(tc.ctx, c, tc.poll)
		if !errors.Is(err, tc.want) || err.Error() != prefix+tc.want.Error() {
			t.Errorf("%s: %v; want %q", tc.name, err, prefix+tc.want.Error())
		}
	}
}

// A rate limit is waited out by what the error matches, not by its code's
// text: a 429 with a code the SDK does not know matches ErrRateLimited by
// its status (spec §7, §9), so it is waited out as RATE_LIMITED is. A known
// code other than RATE_LIMITED on a 429 (a billing refusal) still ends the
// wait: it lifts only at the period's reset. So does any rate limit whose
// Retry-After is over the client's cap (MaxRetryAfter).
func TestLoopRateLimitByStatus(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		err      *shared.Error
		waitsOut bool
	}{
		{"unknown code on a 429", &shared.Error{StatusCode: 429, Code: "QUOTA_THROTTLED"}, true},
		{"no code on a 429", &shared.Error{StatusCode: 429}, true},
		{"RATE_LIMITED", &shared.Error{StatusCode: 429, Code: shared.CodeRateLimited}, true},
		{"billing refusal on a 429", &shared.Error{StatusCode: 429, Code: shared.CodeBillingLimitReached}, false},
		{"unknown code on a 400", &shared.Error{StatusCode: 400, Code: "QUOTA_THROTTLED"}, false},
		// Above the client's cap the caller decides, whatever the code.
		{"unknown code on a 429 over the cap", &shared.Error{StatusCode: 429, Code: "QUOTA_THROTTLED", RetryAfter: time.Hour}, false},
		{"RATE_LIMITED over the cap", &shared.Error{StatusCode: 429, Code: shared.CodeRateLimited, RetryAfter: time.Hour}, false},
	} {
		c := Config{Min: time.Millisecond, Max: time.Millisecond, MaxRetryAfter: time.Minute,
			Sleep: func(context.Context, time.Duration) error { return nil }}
		n := 0
		err := Loop(t.Context(), c, func(context.Context) (Step, error) {
			n++
			if n == 1 {
				return Step{}, tc.err
			}
			return Step{Done: true}, nil
		})
		if waited := err == nil && n == 2; waited != tc.waitsOut {
			t.Errorf("%s: err %v after %d polls; waited out %v, want %v", tc.name, err, n, waited, tc.waitsOut)
		}
	}
}

// NoStatus's error matches shared.ErrNoStatus and prints the request id as
// a *shared.Error does, leaving the brackets out when there is none.
func TestNoStatus(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]string{
		"req_1": "projectops: GET /runs/run_1: the response carries no run status (it is not a run) [request req_1]",
		"":      "projectops: GET /runs/run_1: the response carries no run status (it is not a run)",
	} {
		err := NoStatus("GET", "/runs/run_1", "run", id)
		if !errors.Is(err, shared.ErrNoStatus) || err.Error() != want {
			t.Errorf("request id %q: %v (matches ErrNoStatus: %v), want %q matching it", id, err, errors.Is(err, shared.ErrNoStatus), want)
		}
	}
}
