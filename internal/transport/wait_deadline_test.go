package transport

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/projectops/projectops-go/shared"
)

// A retry wait (Retry-After or backoff) that would end after the context's
// deadline is not slept: the call returns at once with the error the wait
// would have given at the deadline, as the client-side limiter does. No
// timing is measured: the recording sleep must not be called at all.
func TestRetryWaitPastDeadlineReturnsAtOnce(t *testing.T) {
	t.Parallel()
	netErr := errors.New("connection reset by peer")
	for _, tc := range []struct {
		name    string
		reply   reply
		wantRA  time.Duration // the *shared.Error's RetryAfter; 0: no *shared.Error wanted
		wantNet bool
	}{
		{"Retry-After", raReply(http.StatusTooManyRequests, "7200"), 2 * time.Hour, false},
		{"status backoff", status(http.StatusServiceUnavailable), 0, false},
		{"network backoff", reply{err: netErr}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			mock, _ := mockRoute(t, http.MethodGet, "/r", tc.reply)
			tr, sl := newTestTransport(t, mock, func(c *Config) {
				c.MaxRetryAfter = 3 * time.Hour
				c.BaseDelay, c.MaxDelay = 4*time.Hour, 8*time.Hour // any backoff outlasts the deadline
			})
			ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
			defer cancel()
			err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/r", Class: Read}, nil)
			if d := sl.all(); len(d) != 0 {
				t.Errorf("slept %v though the deadline comes first", d)
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("err = %v, want it to match context.DeadlineExceeded", err)
			}
			if ctx.Err() != nil {
				t.Errorf("the call ran until its deadline")
			}
			var e *shared.Error
			switch {
			case tc.wantNet:
				if !errors.Is(err, netErr) {
					t.Errorf("err = %v, want it to wrap the attempt's network error", err)
				}
			case !errors.As(err, &e):
				t.Errorf("err = %v, want it to wrap the *shared.Error", err)
			case e.RetryAfter != tc.wantRA:
				t.Errorf("RetryAfter = %v, want %v", e.RetryAfter, tc.wantRA)
			}
		})
	}
}

// A wait that ends before the deadline is still slept.
func TestRetryWaitBeforeDeadlineSleeps(t *testing.T) {
	t.Parallel()
	mock, _ := mockRoute(t, http.MethodGet, "/r", raReply(http.StatusTooManyRequests, "30"), reply{status: 200, body: `{}`})
	tr, sl := newTestTransport(t, mock)
	ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
	defer cancel()
	if err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/r", Class: Read}, nil); err != nil {
		t.Fatal(err)
	}
	if d := sl.all(); len(d) != 1 || d[0] != 30*time.Second {
		t.Errorf("sleeps %v, want [30s]", d)
	}
}
