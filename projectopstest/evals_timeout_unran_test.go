package projectopstest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// An iteration the run's deadline stopped before its first step never ran:
// like one a cancel stopped, it has no usage (tokensUsed and usage null)
// and no trace (404 TRACE_NOT_AVAILABLE, api-spec.md 4.4), not a zero
// usage and an empty trace.
func TestTimedOutRunUnranIteration(t *testing.T) {
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(100000, 100000),
		projectopstest.WithEvalRunDeadline(20*time.Millisecond),
		projectopstest.WithEvalHooks(projectopstest.EvalHooks{BeforeIteration: func(ctx context.Context, runID, itID string) error {
			<-ctx.Done() // the iteration never gets to run its steps
			return nil
		}}))
	ws := srv.Default()
	sid, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "demo", MCPServer: projectopstest.DemoMCPServer()})
	if err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	created, err := c.Evals.Runs.Create(ctx, ws.ProjectID, evals.RunParams{SuiteName: "s", ServerIDs: []string{sid},
		Tests: []evals.Test{{Title: "t", Model: "anthropic/claude-haiku-4.5", Steps: []evals.Step{evals.PromptStep("a", "hello")}}}})
	if err != nil {
		t.Fatal(err)
	}
	run, err := c.Evals.Runs.Wait(ctx, ws.ProjectID, created.RunID, evals.WithPollInterval(time.Millisecond, 5*time.Millisecond))
	if err != nil || run.Status != evals.StatusTimedOut {
		t.Fatalf("precondition: run %+v, %v; want timed_out", run, err)
	}
	page, err := c.Evals.Runs.ListIterations(ctx, ws.ProjectID, run.ID, nil)
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("precondition: %v %+v", err, page)
	}
	it := page.Items[0]
	if it.Status != evals.StatusCancelled {
		t.Fatalf("precondition: iteration status %q, want cancelled", it.Status)
	}
	if it.TokensUsed != nil || it.Usage != nil {
		t.Errorf("tokensUsed %v, usage %+v; want both null", it.TokensUsed, it.Usage)
	}
	if _, err := c.Evals.Runs.Trace(ctx, ws.ProjectID, run.ID, it.ID); !errors.Is(err, projectops.ErrTraceNotAvailable) {
		t.Errorf("trace: %v; want 404 TRACE_NOT_AVAILABLE", err)
	}
}
