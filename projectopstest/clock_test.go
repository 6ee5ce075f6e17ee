package projectopstest_test

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

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

// With WithClock, a Clock step past a run's deadline times the run out at
// once, without sleeping: the deadline is on the injected clock.
func TestClockAdvancePastRunDeadlineTimesOutRun(t *testing.T) {
	t.Parallel()
	clock := projectopstest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	started := make(chan struct{}, 16)
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithClock(clock.Now),
		projectopstest.WithEvalHooks(projectopstest.EvalHooks{
			BeforeIteration: func(ctx context.Context, _, _ string) error {
				started <- struct{}{}
				<-ctx.Done() // held until the run's deadline passes
				return ctx.Err()
			},
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
	select {
	case <-started:
	case <-time.After(10 * time.Second): // failure guard
		t.Fatal("iteration never started")
	}
	clock.Advance(projectopstest.DefaultEvalRunDeadline - time.Minute) // not yet
	clock.Advance(2 * time.Minute)
	waited := make(chan struct{})
	go func() { srv.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(10 * time.Second): // failure guard
		t.Fatal("the run did not end after the clock passed its deadline")
	}
	run, err := c.Evals.Runs.Get(t.Context(), ws.ProjectID, rc.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != evals.StatusTimedOut {
		t.Errorf("run status after the clock passed DefaultEvalRunDeadline = %q, want %q", run.Status, evals.StatusTimedOut)
	}
}

// With WithClock, a Clock step to the idle timeout closes a kept stdio
// session unused since, before the step returns; a step short of it does
// not.
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
