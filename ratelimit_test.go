package projectops_test

import (
	"errors"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"

	"github.com/google/go-cmp/cmp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
)

// limitedWorld is an access world with the service's default rate limit
// (60 per minute, bursts of 10, per key) on a clock the test steps.
func limitedWorld(t *testing.T) (*accessWorld, *projectopstest.Clock) {
	t.Helper()
	clock := projectopstest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	w := newAccessWorld(t, projectopstest.WithRateLimit(projectopstest.DefaultRatePerMinute, projectopstest.DefaultRateBurst),
		projectopstest.WithClock(clock.Now))
	return w, clock
}

// wantRateLimited asserts a 429 RATE_LIMITED with Retry-After 1s.
func wantRateLimited(t *testing.T, err error) *projectops.Error {
	t.Helper()
	var e *projectops.Error
	if !errors.As(err, &e) || !errors.Is(err, projectops.ErrRateLimited) || e.StatusCode != 429 {
		t.Fatalf("err = %v, want 429 RATE_LIMITED", err)
	}
	if e.RetryAfter != time.Second {
		t.Errorf("RetryAfter = %s, want 1s", e.RetryAfter)
	}
	if !e.Temporary() {
		t.Error("a rate-limited error is not Temporary")
	}
	return e
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	w, clock := limitedWorld(t)
	c := w.client(t, asOwner, option.WithMaxRetries(0))
	me := func() error { _, err := c.Catalog.Me(t.Context()); return err }

	for i := range projectopstest.DefaultRateBurst {
		if err := me(); err != nil {
			t.Fatalf("call %d of the burst: %v", i+1, err)
		}
	}
	wantRateLimited(t, me())
	// Refused calls take no token: however many are refused, one second
	// later exactly one call gets through.
	for range 5 {
		wantRateLimited(t, me())
	}
	clock.Advance(time.Second)
	if err := me(); err != nil {
		t.Fatalf("after 1s: %v", err)
	}
	wantRateLimited(t, me())

	// The limit is per key: another key of the organization still has its
	// burst, and the public catalog is not limited at all.
	other := w.client(t, asMember, option.WithMaxRetries(0))
	if _, err := other.Hosts.List(t.Context(), w.ws.ProjectID, nil); err != nil {
		t.Errorf("another key: %v", err)
	}
	if _, err := c.Catalog.HostCatalog(t.Context()); err != nil {
		t.Errorf("public catalog while limited: %v", err)
	}

	// After 10s the whole burst is back, and no more.
	clock.Advance(10 * time.Second)
	for i := range projectopstest.DefaultRateBurst {
		if err := me(); err != nil {
			t.Fatalf("call %d after refill: %v", i+1, err)
		}
	}
	wantRateLimited(t, me())

	var got []int
	for _, r := range w.srv.Requests() {
		if r.KeyID == w.ws.APIKeyID {
			got = append(got, r.Status)
		}
	}
	want := []int{200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429, 429, 429, 429, 429, 200, 429,
		200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("statuses the double answered the owner's key (-want +got):\n%s", diff)
	}
}

// A Retry-After above the client's cap is not waited out: the call returns
// the typed error at once, after a single request.
func TestRateLimitRetryAfterAboveCap(t *testing.T) {
	t.Parallel()
	w, _ := limitedWorld(t)
	drain := w.client(t, asOwner, option.WithMaxRetries(0))
	for range projectopstest.DefaultRateBurst {
		if _, err := drain.Catalog.Me(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	w.srv.ResetRequests()
	c := w.client(t, asOwner, option.WithMaxRetries(3), option.WithMaxRetryAfter(500*time.Millisecond))
	_, err := c.Hosts.List(t.Context(), w.ws.ProjectID, nil)
	wantRateLimited(t, err)
	if reqs := w.srv.Requests(); len(reqs) != 1 || reqs[0].Status != 429 {
		t.Errorf("double saw %+v, want exactly one 429", reqs)
	}
}

// With retries on and the real clock, the SDK waits out Retry-After (one
// second) and the call succeeds.
func TestRateLimitWaitedOut(t *testing.T) {
	t.Parallel()
	w := newAccessWorld(t, projectopstest.WithRateLimit(projectopstest.DefaultRatePerMinute, projectopstest.DefaultRateBurst))
	drain := w.client(t, asOwner, option.WithMaxRetries(0))
	limited := false
	for range projectopstest.DefaultRateBurst + 5 {
		if _, err := drain.Catalog.Me(t.Context()); err != nil {
			wantRateLimited(t, err)
			limited = true
			break
		}
	}
	if !limited {
		t.Fatal("the burst never ran out")
	}
	w.srv.ResetRequests()
	c := w.client(t, asOwner) // default retries
	page, err := c.Hosts.List(t.Context(), w.ws.ProjectID, nil)
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if len(page.Items) != 1 {
		t.Errorf("List = %d hosts", len(page.Items))
	}
	var got []int
	for _, r := range w.srv.Requests() {
		got = append(got, r.Status)
	}
	if diff := cmp.Diff([]int{429, 200}, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
}
