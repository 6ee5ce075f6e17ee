package projectops_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/evals"
)

// A 429 whose code the SDK does not know is still a rate limit (spec §7:
// unknown codes follow their status; §9: new codes may appear), and
// docs/sdk.md has it match ErrRateLimited: both waiters ride it out, more
// times than one call's retries would, and poll on.
func TestWaitersRideOutRateLimitWithUnknownCode(t *testing.T) {
	t.Parallel()
	const refusals = 6 // more than one call's 4 attempts: the waiter must poll again
	cases := []struct {
		name string
		done string
		wait func(ctx context.Context, url string) error
	}{
		{"Runs.Wait", `{"id":"run_1","status":"completed"}`, func(ctx context.Context, url string) error {
			c := edgeClient(t, url)
			_, err := c.Evals.Runs.Wait(ctx, "prj_1", "run_1", evals.WithPollInterval(time.Millisecond, 5*time.Millisecond))
			return err
		}},
		{"WaitForBuild", `{"items":[{"id":"bld_1","status":"ready"}]}`, func(ctx context.Context, url string) error {
			c := edgeClient(t, url)
			_, err := c.Environments.WaitForBuild(ctx, "prj_1", "env_1", "bld_1", environments.WithPollInterval(time.Millisecond, 5*time.Millisecond))
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if n.Add(1) <= refusals {
					w.Header().Set("Retry-After", "0")
					w.WriteHeader(http.StatusTooManyRequests)
					w.Write([]byte(`{"code":"QUOTA_THROTTLED","message":"slow down"}`))
					return
				}
				w.Write([]byte(tc.done))
			}))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			if err := tc.wait(ctx, srv.URL+"/api/v1"); err != nil {
				t.Fatalf("%s ended on a 429 with an unknown code after %d requests: %v; want it waited out (the 429 status makes it retryable)", tc.name, n.Load(), err)
			}
			if got := n.Load(); got != refusals+1 {
				t.Errorf("%d requests, want %d refused and one answered", got, refusals+1)
			}
		})
	}
}
