package ingest_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"

	"go.uber.org/goleak"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// fixture is a double (no rate limit unless asked, fake clock) and an SDK
// client on it with fast retries.
type fixture struct {
	srv   *projectopstest.Server
	ws    projectopstest.Workspace
	c     *projectops.Client
	clock *fakeClock
}

func setup(t testing.TB, opts ...projectopstest.Option) *fixture {
	t.Helper()
	clock := &fakeClock{now: t0}
	base := []projectopstest.Option{projectopstest.WithRateLimit(0, 0), projectopstest.WithClock(clock.Now)}
	srv := projectopstest.NewTestServer(t, append(base, opts...)...)
	f := &fixture{srv: srv, ws: srv.Default(), clock: clock}
	f.c = f.client(t)
	return f
}

func (f *fixture) client(t testing.TB, opts ...option.RequestOption) *projectops.Client {
	t.Helper()
	base := []option.RequestOption{option.WithRetryBackoff(time.Millisecond, 5*time.Millisecond)}
	c, err := f.srv.NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c
}

// wantCode asserts err is a *projectops.Error with code (and, for a
// VALIDATION_ERROR, field in details when field is set).
func wantCode(t *testing.T, err error, code projectops.Code, field string) *projectops.Error {
	t.Helper()
	var e *projectops.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *projectops.Error %s", err, err, code)
	}
	if e.Code != code {
		t.Fatalf("code = %s (%v), want %s", e.Code, e, code)
	}
	if field != "" {
		if got, _ := e.Details["field"].(string); got != field {
			t.Fatalf("details.field = %q, want %q (%v)", got, field, e)
		}
	}
	return e
}

// routeStatuses lists the statuses the double answered on route.
func routeStatuses(srv *projectopstest.Server, route string) []int {
	out := []int{}
	for _, r := range srv.Requests() {
		if r.Route == route {
			out = append(out, r.Status)
		}
	}
	return out
}

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

const (
	routeReport    = "POST /projects/{projectId}/eval-ingest/report"
	routeStart     = "POST /projects/{projectId}/eval-ingest/runs/start"
	routeAppend    = "POST /projects/{projectId}/eval-ingest/runs/iterations"
	routeFinalize  = "POST /projects/{projectId}/eval-ingest/runs/finalize"
	routeUploadURL = "POST /projects/{projectId}/eval-ingest/artifacts/upload-url"
)
