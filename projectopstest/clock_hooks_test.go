package projectopstest_test

import (
	"context"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// hookedRun starts a one-iteration run on a double with an injected clock
// and a run deadline of deadline, whose iteration runs hook, and tells
// finished (if not nil) the status it ends with; it returns the double, a
// client, the project and the run.
func hookedRun(t *testing.T, clock *projectopstest.Clock, deadline time.Duration, hook func(ctx context.Context) error,
	finished func(evals.Status)) (*projectopstest.Server, *projectops.Client, string, string) {
	t.Helper()
	if finished == nil {
		finished = func(evals.Status) {}
	}
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithClock(clock.Now),
		projectopstest.WithEvalRunDeadline(deadline),
		projectopstest.WithEvalHooks(projectopstest.EvalHooks{
			BeforeIteration: func(ctx context.Context, _, _ string) error { return hook(ctx) },
			RunFinished:     func(_ string, st evals.Status) { finished(st) },
		}))
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	ws := srv.Default()
	id, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "demo", MCPServer: projectopstest.DemoMCPServer()})
	if err != nil {
		t.Fatal(err)
	}
	rc, err := c.Evals.Runs.Create(t.Context(), ws.ProjectID, evals.RunParams{SuiteName: "s", ServerIDs: []string{id},
		Tests: []evals.Test{{Title: "t", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "use echo message=hi")}}}})
	if err != nil {
		t.Fatal(err)
	}
	return srv, c, ws.ProjectID, rc.RunID
}

// An iteration that itself steps the injected clock past the run's
// deadline (a slow step simulated without sleeping) and then returns: the
// run is timed out as it finishes, not completed, with no request or
// helper reading the clock in between (the status is the one the run
// finished with).
func TestClockSteppedByHookTimesRunOut(t *testing.T) {
	clock := projectopstest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	got := make(chan evals.Status, 1)
	hookedRun(t, clock, 20*time.Second, func(context.Context) error {
		clock.Advance(time.Minute)
		return nil
	}, func(st evals.Status) { got <- st })
	select {
	case st := <-got:
		if st != evals.StatusTimedOut {
			t.Errorf("run finished %q after its iteration stepped the clock 1m past a 20s deadline, want timed_out", st)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the run never finished")
	}
}

// A step made while Wait waits (here by the run's hook, once Wait has
// begun) is seen: Wait keeps reading the clock, times the run out and
// returns, instead of waiting for the real-time deadline (a minute here;
// the guard below only keeps a regression from hanging the test).
func TestWaitSeesClockSteppedWhileWaiting(t *testing.T) {
	clock := projectopstest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	entered, step := make(chan struct{}), make(chan struct{})
	srv, c, projectID, runID := hookedRun(t, clock, time.Minute, func(ctx context.Context) error {
		close(entered)
		<-step
		clock.Advance(2 * time.Minute) // past the deadline on the injected clock
		<-ctx.Done()
		return ctx.Err()
	}, nil)
	<-entered
	waited := make(chan struct{})
	go func() {
		srv.Wait()
		close(waited)
	}()
	time.Sleep(20 * time.Millisecond) // lets Wait begin waiting before the step (not asserted)
	close(step)
	select {
	case <-waited:
	case <-time.After(20 * time.Second):
		t.Fatal("Wait still waiting 20s after the injected clock passed the run's deadline")
	}
	if r, err := c.Evals.Runs.Get(t.Context(), projectID, runID); err != nil || r.Status != evals.StatusTimedOut {
		t.Errorf("run = %+v, %v; want it timed_out", r, err)
	}
}
