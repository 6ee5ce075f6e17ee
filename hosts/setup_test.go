package hosts_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
)

// t0 is the fake clock's start: every timestamp the double writes is
// predictable.
var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// fixture is a double (rate limiting off unless a test turns it on, fake
// clock) and an SDK client wired to it in process as the default owner.
type fixture struct {
	srv   *projectopstest.Server
	ws    projectopstest.Workspace
	c     *projectops.Client
	clock *fakeClock
}

func setup(t *testing.T, opts ...projectopstest.Option) *fixture {
	t.Helper()
	clock := &fakeClock{now: t0}
	base := []projectopstest.Option{projectopstest.WithRateLimit(0, 0), projectopstest.WithClock(clock.Now)}
	srv := projectopstest.NewTestServer(t, append(base, opts...)...)
	f := &fixture{srv: srv, ws: srv.Default(), clock: clock}
	f.c = f.client(t)
	return f
}

// client returns an SDK client on the double with fast retries; opts come
// last, so projectops.WithAPIKey switches identity.
func (f *fixture) client(t *testing.T, opts ...projectops.Option) *projectops.Client {
	t.Helper()
	base := []projectops.Option{projectops.WithRetryBackoff(time.Millisecond, 5*time.Millisecond)}
	c, err := f.srv.NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c
}

// must fails the test when an Add helper fails and returns the new id.
func must(t *testing.T) func(id string, err error) string {
	return func(id string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
}

// wantError asserts err is a *projectops.Error with code and the HTTP status
// the specification pairs with it (status 0 when the SDK raised it).
func wantError(t *testing.T, err error, code projectops.Code, sent bool) *projectops.Error {
	t.Helper()
	var e *projectops.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *projectops.Error %s", err, err, code)
	}
	if e.Code != code {
		t.Fatalf("code = %s (%v), want %s", e.Code, e, code)
	}
	wantStatus := 0
	if sent {
		wantStatus = code.Status()
	}
	if e.StatusCode != wantStatus {
		t.Fatalf("status = %d, want %d (%v)", e.StatusCode, wantStatus, e)
	}
	return e
}

// wantField asserts a VALIDATION_ERROR naming field in details.field.
func wantField(t *testing.T, err error, field string, sent bool) *projectops.Error {
	t.Helper()
	e := wantError(t, err, projectops.CodeValidation, sent)
	if got, _ := e.Details["field"].(string); got != field {
		t.Fatalf("details.field = %q, want %q (details %v)", got, field, e.Details)
	}
	return e
}

// collect drains an iterator, stopping at the first error.
func collect[T any](seq func(yield func(T, error) bool)) ([]T, error) {
	var out []T
	for v, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

// fakeClock is a settable clock, safe for concurrent use.
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

// apiBody is the error envelope as sent on the wire.
type apiBody struct {
	Code    projectops.Code `json:"code"`
	Message string          `json:"message"`
	Details map[string]any  `json:"details"`
}

// raw sends body as-is with key (when set) through the double's plain
// http.Client, for requests the typed SDK cannot produce, and returns the
// status and the decoded envelope (zero for a success).
func (f *fixture) raw(t *testing.T, method, path, key, body string) (int, apiBody) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, f.srv.URL()+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var e apiBody
	if resp.StatusCode >= 300 {
		if err := json.Unmarshal(b, &e); err != nil {
			t.Fatalf("%s %s: %d with a non-envelope body %q", method, path, resp.StatusCode, b)
		}
	}
	return resp.StatusCode, e
}
