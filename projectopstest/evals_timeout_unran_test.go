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

// An iteration that never ran its steps has no usage: the SDK documents
// Iteration.TokensUsed as "nil when the service sends null (no usage: an
// iteration that never ran, a cancelled one, ...)" and Usage as "nil when
// the service has none (an iteration that never ran, a cancelled one)";
// docs/sdk.md repeats it and the double's iterView says "tokensUsed is null
// without usage (never ran, cancelled, ...)". Cancelling a run through the
// API honours that (tokensUsed null, usage null). But when the run hits its
// deadline (status timed_out), the same never-started iteration, also
// reported cancelled, carries usage {0,0,0} and tokensUsed 0, as if it had
// run a model-free step.
func TestTimedOutRunIterationHasNoUsage(t *testing.T) {
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
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != evals.StatusTimedOut {
		t.Fatalf("precondition: run status %q, want timed_out", run.Status)
	}
	page, err := c.Evals.Runs.ListIterations(ctx, ws.ProjectID, run.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range page.Items {
		if it.Status != evals.StatusCancelled {
			t.Fatalf("precondition: iteration %s status %q, want cancelled", it.ID, it.Status)
		}
		if it.TokensUsed != nil || it.Usage != nil {
			t.Errorf("iteration %s never ran (cancelled by the run deadline) but tokensUsed=%v usage=%+v; want both null, as after Runs.Cancel",
				it.ID, deref(it.TokensUsed), it.Usage)
		}
	}
}

// Same root cause (iterExec.store on the !done path stores what it has,
// an empty trace included): the never-started iteration of a timed-out run
// answers its trace with 200 and an empty document {}, while the same
// iteration of a run cancelled through the API answers 404
// TRACE_NOT_AVAILABLE. api-spec.md 4.4: "when the iteration finished without
// a stored trace, 404 with details.reason = TRACE_NOT_AVAILABLE".
func TestTimedOutRunIterationTraceNotAvailable(t *testing.T) {
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(100000, 100000),
		projectopstest.WithEvalRunDeadline(20*time.Millisecond),
		projectopstest.WithEvalHooks(projectopstest.EvalHooks{BeforeIteration: func(ctx context.Context, runID, itID string) error {
			<-ctx.Done()
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
		t.Fatalf("precondition: %v %+v", err, run)
	}
	page, err := c.Evals.Runs.ListIterations(ctx, ws.ProjectID, run.ID, nil)
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("precondition: %v %+v", err, page)
	}
	tr, err := c.Evals.Runs.Trace(ctx, ws.ProjectID, run.ID, page.Items[0].ID)
	if !errors.Is(err, projectops.ErrTraceNotAvailable) {
		raw := ""
		if tr != nil {
			raw = string(tr.Raw)
		}
		t.Errorf("trace of a never-started iteration of a timed-out run: got %q, err=%v; want 404 TRACE_NOT_AVAILABLE (as after Runs.Cancel)", raw, err)
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}
