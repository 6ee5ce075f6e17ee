package environments_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/projectopstest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// t0 is the fake clock's start.
var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// fast polls WaitForBuild without real delays worth noticing.
var fast = &environments.WaitOptions{Interval: time.Millisecond, MaxInterval: 5 * time.Millisecond}

// fixture is a double with a fake clock, rate limiting off and a build
// gate, and an SDK client on it as the default owner.
type fixture struct {
	srv   *projectopstest.Server
	ws    projectopstest.Workspace
	c     *projectops.Client
	clock *fakeClock
	gate  *gate
}

func setup(t *testing.T, opts ...projectopstest.Option) *fixture {
	t.Helper()
	clock := &fakeClock{now: t0}
	g := newGate()
	base := []projectopstest.Option{projectopstest.WithRateLimit(0, 0), projectopstest.WithClock(clock.Now),
		projectopstest.WithBuildHook(g.hook)}
	srv := projectopstest.NewTestServer(t, append(base, opts...)...)
	// Builds still held when the test ends are let go before Close waits.
	t.Cleanup(g.open)
	f := &fixture{srv: srv, ws: srv.Default(), clock: clock, gate: g}
	f.c = f.client(t)
	return f
}

// client returns an SDK client on the double with fast retries.
func (f *fixture) client(t *testing.T, opts ...projectops.Option) *projectops.Client {
	t.Helper()
	base := []projectops.Option{projectops.WithRetryBackoff(time.Millisecond, 5*time.Millisecond)}
	c, err := f.srv.NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c
}

// user adds a user of the default organization with an org role and a
// project role in the default project ("" for none), and returns the user
// id and a client acting as them.
func (f *fixture) user(t *testing.T, orgRole, projectRole projectopstest.Role) (string, *projectops.Client) {
	t.Helper()
	id, err := f.srv.AddUser(projectopstest.UserSpec{OrganizationID: f.ws.OrganizationID, Role: orgRole})
	if err != nil {
		t.Fatal(err)
	}
	if projectRole != "" {
		if err := f.srv.AddMember(f.ws.ProjectID, id, projectRole); err != nil {
			t.Fatal(err)
		}
	}
	key, _, err := f.srv.AddAPIKey(id, "test")
	if err != nil {
		t.Fatal(err)
	}
	return id, f.client(t, projectops.WithAPIKey(key))
}

// gate is a build hook that holds every build step until the test lets it
// go, so tests observe each state without sleeping. open lets every step
// (current and future) through.
type gate struct {
	steps    chan projectopstest.BuildStep
	release  chan struct{}
	opened   chan struct{}
	openOnce sync.Once
}

func newGate() *gate {
	return &gate{steps: make(chan projectopstest.BuildStep, 64), release: make(chan struct{}),
		opened: make(chan struct{})}
}

func (g *gate) hook(ctx context.Context, step projectopstest.BuildStep) error {
	select {
	case <-g.opened:
		return nil
	case g.steps <- step:
	}
	select {
	case <-g.release:
	case <-g.opened:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// next waits for the next build step to arrive at the gate (and be held).
func (g *gate) next(t *testing.T) projectopstest.BuildStep {
	t.Helper()
	select {
	case s := <-g.steps:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("no build step arrived at the gate")
		return projectopstest.BuildStep{}
	}
}

// pass lets the held step through.
func (g *gate) pass(t *testing.T) {
	t.Helper()
	select {
	case g.release <- struct{}{}:
	case <-time.After(10 * time.Second):
		t.Fatal("no build step is held at the gate")
	}
}

// step waits for the next step and lets it through.
func (g *gate) step(t *testing.T) projectopstest.BuildStep {
	t.Helper()
	s := g.next(t)
	g.pass(t)
	return s
}

func (g *gate) open() { g.openOnce.Do(func() { close(g.opened) }) }

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

// wantError asserts err is a *projectops.Error with code, answered by the
// service with the status the specification pairs with it.
func wantError(t *testing.T, err error, code projectops.Code) *projectops.Error {
	t.Helper()
	var e *projectops.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *projectops.Error %s", err, err, code)
	}
	if e.Code != code || e.StatusCode != code.Status() {
		t.Fatalf("err = %v, want %s (%d)", e, code, code.Status())
	}
	return e
}

// raw sends body as-is with the default key and returns the status and the
// error envelope's details.field.
func (f *fixture) raw(t *testing.T, method, path, key, body string) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, f.srv.URL()+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
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
	var env struct {
		Details struct {
			Field string `json:"field"`
		} `json:"details"`
	}
	if resp.StatusCode >= 300 {
		if err := json.Unmarshal(b, &env); err != nil {
			t.Fatalf("%s %s: %d with a non-envelope body %q", method, path, resp.StatusCode, b)
		}
	}
	return resp.StatusCode, env.Details.Field
}
