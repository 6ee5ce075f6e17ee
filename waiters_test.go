package projectops_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/option"
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

// A 200 whose body is no run (null, empty, an object without a status)
// leaves Get's Run zero, and no zero Run turns terminal: Wait ends at once
// with an error naming the route instead of polling until the context
// ends. WaitForBuild does the same for a listed build without a status.
// The error matches projectops.ErrNoStatus and carries the answer's
// request id, cleaned of the key as any error's is; a caller's own
// WithResponseInto still describes the poll.
func TestWaitersStopOnAnAnswerWithoutStatus(t *testing.T) {
	t.Parallel()
	type waitCase struct {
		name, body, want string
		wait             func(ctx context.Context, url string) error
	}
	runWait := func(ctx context.Context, url string) error {
		_, err := edgeClient(t, url).Evals.Runs.Wait(ctx, "prj_1", "run_1", evals.WithPollInterval(time.Millisecond, 5*time.Millisecond))
		return err
	}
	const runWant = "GET /projects/prj_1/eval-runs/run_1: the response carries no run status (it is not a run) [request req_abc-sk_***]"
	cases := []waitCase{
		{"Runs.Wait null", "null", runWant, runWait},
		{"Runs.Wait empty", "", runWant, runWait},
		{"Runs.Wait {}", "{}", runWant, runWait},
		{"Runs.Wait no status", `{"id":"run_1"}`, runWant, runWait},
		{"Runs.Wait with the caller's WithResponseInto", "null", runWant, func(ctx context.Context, url string) error {
			var meta option.Response
			_, err := edgeClient(t, url).Evals.Runs.Wait(ctx, "prj_1", "run_1", evals.WithPollInterval(time.Millisecond, 5*time.Millisecond),
				evals.WithRequestOptions(option.WithResponseInto(&meta)))
			if meta.StatusCode != http.StatusOK || !strings.HasPrefix(meta.RequestID, "req_abc-") {
				t.Errorf("the caller's WithResponseInto = %+v, want the poll's 200 and request id", meta)
			}
			return err
		}},
		{"WaitForBuild no status", `{"items":[{"id":"bld_1"}]}`,
			"GET /projects/prj_1/computer-environments/env_1/builds: the response carries no build status (it is not a build) [request req_abc-sk_***]",
			func(ctx context.Context, url string) error {
				_, err := edgeClient(t, url).Environments.WaitForBuild(ctx, "prj_1", "env_1", "bld_1",
					environments.WithPollInterval(time.Millisecond, 5*time.Millisecond))
				return err
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n.Add(1)
				w.Header().Set("Content-Type", "application/json")
				// A gateway echoing the key into the request id.
				w.Header().Set("X-Request-Id", "req_abc-sk_test_audit")
				w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			// The deadline only bounds a failing test: the wait must end
			// on the first answer, before it.
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			err := tc.wait(ctx, srv.URL+"/api/v1")
			if err == nil || errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("body %q: %v after %d polls; want an error saying %q", tc.body, err, n.Load(), tc.want)
			}
			if !errors.Is(err, projectops.ErrNoStatus) {
				t.Errorf("body %q: %v does not match projectops.ErrNoStatus", tc.body, err)
			}
			if strings.Contains(err.Error(), "sk_test_audit") {
				t.Errorf("body %q: %v shows the key", tc.body, err)
			}
			if got := n.Load(); got != 1 {
				t.Errorf("body %q: %d polls, want the wait to end on the first", tc.body, got)
			}
		})
	}
}

// A waiter's "no status" error is error text, so its request id is
// cleaned as an error's is: of a credential header's value too, set on
// the client or on the call, which a gateway may echo into x-request-id
// (docs/sdk.md: error text never contains headers). The id came from the
// poll's WithResponseInto target, a success's metadata, cleaned of the
// request's own secrets only. A caller's own target keeps the success's
// id as documented.
func TestWaitersNoStatusErrorCleansCredentialHeaders(t *testing.T) {
	t.Parallel()
	const tok = "proxy-secret-0123456789"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "req_"+r.Header.Get("X-Proxy-Token"))
		if strings.HasSuffix(r.URL.Path, "/builds") {
			w.Write([]byte(`{"items":[{"id":"bld_1"}]}`))
			return
		}
		w.Write([]byte(`null`))
	}))
	defer srv.Close()
	header := option.WithHeader("X-Proxy-Token", tok)
	for _, where := range []string{"client", "call"} {
		var client, call []option.RequestOption
		if where == "client" {
			client = []option.RequestOption{header}
		} else {
			call = []option.RequestOption{header}
		}
		var meta option.Response
		call = append(call, option.WithResponseInto(&meta))
		c := edgeClient(t, srv.URL+"/api/v1", client...)
		for name, wait := range map[string]func(ctx context.Context) error{
			"Runs.Wait": func(ctx context.Context) error {
				_, err := c.Evals.Runs.Wait(ctx, "prj_1", "run_1",
					evals.WithPollInterval(time.Millisecond, 5*time.Millisecond), evals.WithRequestOptions(call...))
				return err
			},
			"WaitForBuild": func(ctx context.Context) error {
				_, err := c.Environments.WaitForBuild(ctx, "prj_1", "env_1", "bld_1",
					environments.WithPollInterval(time.Millisecond, 5*time.Millisecond), environments.WithRequestOptions(call...))
				return err
			},
		} {
			// The deadline only bounds a failing test.
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			err := wait(ctx)
			cancel()
			if !errors.Is(err, projectops.ErrNoStatus) || strings.Contains(err.Error(), tok) ||
				!strings.Contains(err.Error(), "[request req_REDACTED]") {
				t.Errorf("%s, header on the %s: err = %v; want ErrNoStatus naming the request id without the header's value", name, where, err)
			}
			if meta.RequestID != "req_"+tok {
				t.Errorf("%s, header on the %s: the caller's WithResponseInto has request id %q, want the success's as it came", name, where, meta.RequestID)
			}
		}
	}
}
