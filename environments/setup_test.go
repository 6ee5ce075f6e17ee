package environments_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"

	"go.uber.org/goleak"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// fast polls WaitForBuild without real delays worth noticing.
var fast = environments.WithPollInterval(time.Millisecond, 5*time.Millisecond)

var t0 = sdktest.T0

// fixture is the shared contract-test fixture with a build gate: every
// build step waits until the test lets it go.
type fixture struct {
	*sdktest.Fixture
	gate *gate
}

func setup(t *testing.T, opts ...projectopstest.Option) *fixture {
	t.Helper()
	g := newGate()
	f := &fixture{Fixture: sdktest.Setup(t, append([]projectopstest.Option{projectopstest.WithBuildHook(g.hook)}, opts...)...), gate: g}
	// Builds still held when the test ends are let go before Close waits.
	t.Cleanup(g.open)
	return f
}

// user adds a user of the default organization with an org role and a
// project role in the default project ("" for none), and returns the user
// id and a client acting as them.
func (f *fixture) user(t *testing.T, orgRole, projectRole projectopstest.Role) (string, *projectops.Client) {
	t.Helper()
	id, err := f.Srv.AddUser(projectopstest.UserSpec{OrganizationID: f.WS.OrganizationID, Role: orgRole})
	if err != nil {
		t.Fatal(err)
	}
	if projectRole != "" {
		if err := f.Srv.AddMember(f.WS.ProjectID, id, projectRole); err != nil {
			t.Fatal(err)
		}
	}
	key, _, err := f.Srv.AddAPIKey(id, "test")
	if err != nil {
		t.Fatal(err)
	}
	return id, f.Client(t, option.WithAPIKey(key))
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

// wantError asserts err is a *projectops.Error with code, answered by the
// service with the status the specification pairs with it.
func wantError(t *testing.T, err error, code projectops.Code) *projectops.Error {
	t.Helper()
	return sdktest.WantError(t, err, code, true)
}

// raw sends body as-is with key and returns the status and the error
// envelope's details.field.
func (f *fixture) raw(t *testing.T, method, path, key, body string) (int, string) {
	t.Helper()
	status, env := f.Raw(t, method, path, key, body)
	field, _ := env.Details["field"].(string)
	return status, field
}
