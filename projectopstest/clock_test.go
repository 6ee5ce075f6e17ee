package projectopstest_test

import (
	"context"
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

func TestClock(t *testing.T) {
	start := time.Date(2026, 7, 9, 12, 0, 0, 0, time.UTC)
	c := projectopstest.NewClock(start)
	if !c.Now().Equal(start) {
		t.Fatalf("Now = %v, want %v", c.Now(), start)
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() { c.Advance(time.Second); _ = c.Now() })
	}
	wg.Wait()
	if got := c.Now().Sub(start); got != 10*time.Second {
		t.Errorf("after 10 concurrent Advance(1s): %v", got)
	}
	c.Set(start)
	if !c.Now().Equal(start) {
		t.Errorf("Set: Now = %v", c.Now())
	}
}

// With WithClock the double dates its API answers by that clock, in
// process and over a listener (where net/http would stamp the real time):
// clients judge the service's time by Date, as a tunnel host's renewal
// does. Without it, an API answer over a listener carries net/http's Date.
func TestWithClockDatesAPIAnswers(t *testing.T) {
	t.Parallel()
	clk := projectopstest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithClock(clk.Now))
	for _, tg := range targets(t, srv) {
		r := tg.call(t, "GET", "/me", srv.Default().APIKey, nil)
		if got := r.header.Get("Date"); got != "Fri, 02 Jan 2026 03:04:05 GMT" {
			t.Errorf("%s: Date %q, want the double's clock's", tg.name, got)
		}
	}
}

// heldRun starts a run under WithClock(clock.Now) whose one iteration is
// held until the run's context ends, and returns once it is held.
func heldRun(t *testing.T, clock *projectopstest.Clock) (*projectopstest.Server, *projectops.Client, string, string) {
	t.Helper()
	started := make(chan struct{}, 16)
	srv, c, projectID, runID := hookedRun(t, clock, projectopstest.DefaultEvalRunDeadline, func(ctx context.Context) error {
		started <- struct{}{}
		<-ctx.Done() // held until the run's deadline passes
		return ctx.Err()
	}, nil)
	select {
	case <-started:
	case <-time.After(10 * time.Second): // failure guard
		t.Fatal("iteration never started")
	}
	return srv, c, projectID, runID
}

// With WithClock, a run whose deadline the injected clock passed is timed
// out when Wait is next called, which then waits for it to end, without
// sleeping: the deadline is on the injected clock.
func TestClockAdvancePastRunDeadlineTimesOutRun(t *testing.T) {
	t.Parallel()
	clock := projectopstest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	srv, c, projectID, runID := heldRun(t, clock)
	clock.Advance(projectopstest.DefaultEvalRunDeadline - time.Minute) // not yet
	clock.Advance(2 * time.Minute)
	waited := make(chan struct{})
	go func() { srv.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(10 * time.Second): // failure guard
		t.Fatal("Wait did not return after the clock passed the run's deadline")
	}
	run, err := c.Evals.Runs.Get(t.Context(), projectID, runID)
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != evals.StatusTimedOut {
		t.Errorf("run status after the clock passed DefaultEvalRunDeadline = %q, want %q", run.Status, evals.StatusTimedOut)
	}
}

// With WithClock, the first request after a step past a run's deadline
// finds the run timed out, its own included: a cancel then is 409 and
// leaves the run timed_out, never cancelled. (The deadline takes effect
// on the request's goroutine before the route runs; one set off on
// another goroutine by the step would race the cancel, so the old
// notification lost some of these rounds.)
func TestClockDeadlinePassedBeforeNextRequest(t *testing.T) {
	t.Parallel()
	for i := range 20 {
		clock := projectopstest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
		srv, c, projectID, runID := heldRun(t, clock)
		clock.Advance(projectopstest.DefaultEvalRunDeadline)
		if _, err := c.Evals.Runs.Cancel(t.Context(), projectID, runID); !errors.Is(err, projectops.ErrConflict) {
			t.Errorf("round %d: cancel after a step past the deadline: %v, want 409 CONFLICT", i, err)
		}
		srv.Wait()
		run, err := c.Evals.Runs.Get(t.Context(), projectID, runID)
		if err != nil {
			t.Fatal(err)
		}
		if run.Status != evals.StatusTimedOut {
			t.Fatalf("round %d: run status = %q after a step past its deadline then a cancel, want %q", i, run.Status, evals.StatusTimedOut)
		}
		srv.Close()
	}
}

// A clock function may step a Clock itself: one that ticks a millisecond
// on every read gives distinct timestamps, and the double handles
// requests, runs and helpers under it (a Clock step once had every
// server read its clock, which stepped the Clock again, without end).
func TestClockTickingOnEveryRead(t *testing.T) {
	t.Parallel()
	clock := projectopstest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	tick := func() time.Time { clock.Advance(time.Millisecond); return clock.Now() }
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithClock(tick))
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	ws := srv.Default()
	before := clock.Now()
	if _, err := c.Hosts.List(t.Context(), ws.ProjectID, nil); err != nil {
		t.Fatal(err)
	}
	if n := srv.MCPSessions(); n != 0 {
		t.Errorf("MCPSessions = %d, want 0", n)
	}
	srv.Wait()
	if !clock.Now().After(before) {
		t.Error("the double never read its ticking clock")
	}
}

// Stepping a Clock reads no server's clock: a server's clock function is
// read only on that server's own requests and helpers, so a plain function
// its test alone steps needs no lock, whatever other tests' Clocks do.
func TestClockStepReadsNoServersClock(t *testing.T) {
	t.Parallel()
	var reads atomic.Int64
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithClock(func() time.Time {
		reads.Add(1)
		return now
	}), projectopstest.WithMCPIdleTimeout(time.Minute))
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Hosts.List(t.Context(), srv.Default().ProjectID, nil); err != nil {
		t.Fatal(err)
	}
	was := reads.Load()
	other := projectopstest.NewClock(now) // another test's
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 100 {
			other.Advance(time.Second)
		}
	})
	for range 100 {
		now = now.Add(time.Second) // this test's own clock, unlocked
	}
	wg.Wait()
	if got := reads.Load(); got != was {
		t.Errorf("another Clock's steps read this server's clock %d times, want 0", got-was)
	}
}

// With WithClock, a kept stdio session unused for the idle timeout on the
// injected clock is closed when MCPSessions is next called (or a request
// next comes); a step short of it closes nothing.
func TestClockAdvanceExpiresIdleStdioSession(t *testing.T) {
	t.Parallel()
	clock := projectopstest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithClock(clock.Now),
		projectopstest.WithMCPIdleTimeout(time.Minute))
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	ws := srv.Default()
	id, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "stdio", Command: os.Args[0],
		Args: []string{"-test.run=^$"}, Env: map[string]projectopstest.Secret{demoPeerEnv: "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Servers.ListTools(t.Context(), ws.ProjectID, id, nil); err != nil {
		t.Fatal(err)
	}
	if n := srv.MCPSessions(); n != 1 {
		t.Fatalf("MCPSessions = %d after a stdio call, want 1 (kept)", n)
	}
	clock.Advance(time.Minute - time.Second)
	if n := srv.MCPSessions(); n != 1 {
		t.Fatalf("MCPSessions = %d a second before the idle timeout, want 1", n)
	}
	clock.Advance(time.Second)
	if n := srv.MCPSessions(); n != 0 {
		t.Errorf("MCPSessions = %d once the clock reached the idle timeout, want 0", n)
	}
}
