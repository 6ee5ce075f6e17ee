package transport

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
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
	if d := sl.all(); len(d) != 1 || d[0] < 30*time.Second || d[0] > 30*time.Second+30*time.Second/4 {
		t.Errorf("sleeps %v, want one of 30s plus its jitter", d)
	}
}

// A call whose context is cancelled (it also has a deadline, as most
// callers' do) while a retryable answer comes back ends with
// context.Canceled, as ctx.Err() says: the early return is for a deadline
// that will pass, not for one an hour away.
func TestRetryWaitCancelledWithDeadlineReportsCanceled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
	defer cancel()
	rt := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		cancel() // the caller gives up as the 429 arrives
		return &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"7200"}},
			Body: http.NoBody, Request: req}, nil
	})
	tr, _ := newTestTransport(t, rt, func(c *Config) { c.MaxRetryAfter = 3 * time.Hour })
	err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/r", Class: Read}, nil)
	if !errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v; ctx.Err() = %v; want context.Canceled", err, ctx.Err())
	}
}

// A retry given up at once because its wait would outlast the deadline is
// not logged as a retry: the debug log names only retries that happen.
func TestRetryWaitPastDeadlineLogsNoRetry(t *testing.T) {
	t.Parallel()
	netErr := errors.New("connection reset by peer")
	for name, r := range map[string]reply{
		"Retry-After":     raReply(http.StatusTooManyRequests, "7200"),
		"status backoff":  status(http.StatusServiceUnavailable),
		"network backoff": {err: netErr},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var rec records
			mock, _ := mockRoute(t, http.MethodGet, "/r", r)
			tr, _ := newTestTransport(t, mock, func(c *Config) {
				c.MaxRetryAfter = 3 * time.Hour
				c.BaseDelay, c.MaxDelay = 4*time.Hour, 8*time.Hour
				c.Logger = slog.New(&rec)
			})
			ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
			defer cancel()
			if err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/r", Class: Read}, nil); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want it to match context.DeadlineExceeded", err)
			}
			msgs := rec.messages()
			if len(msgs) != 1 || msgs[0] != "projectops request" {
				t.Errorf("logged %q, want only the attempt", msgs)
			}
		})
	}
}

// records is a slog.Handler that keeps every record's message.
type records struct {
	mu   sync.Mutex
	msgs []string
}

func (r *records) Enabled(context.Context, slog.Level) bool { return true }
func (r *records) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *records) WithGroup(string) slog.Handler            { return r }

func (r *records) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, rec.Message)
	return nil
}

func (r *records) messages() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.msgs...)
}
