package projectopstest_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
)

type cancelTagIn struct {
	Tag string `json:"tag"`
}

// After a cancel returns, the run and its iterations are final: nothing a
// read shows may change later (spec section 3: cancelled is terminal).
func TestCancelledIterationIsFinal(t *testing.T) {
	t.Parallel()
	started := make(chan struct{}, 8)
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0), projectopstest.WithEvalParallelism(1),
		// An in-flight step that takes a moment to wind down once cancelled
		// (as a widget action or a slow MCP teardown does).
		projectopstest.WithInteractHandler(func(ctx context.Context, _ evals.Step) error {
			started <- struct{}{}
			<-ctx.Done()
			time.Sleep(300 * time.Millisecond)
			return ctx.Err()
		}))
	ws := srv.Default()
	m := mcp.NewServer(&mcp.Implementation{Name: "demo", Version: "1"}, nil)
	mcp.AddTool(m, &mcp.Tool{Name: "quick"}, func(context.Context, *mcp.CallToolRequest, cancelTagIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	mcp.AddTool(m, &mcp.Tool{Name: "block"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ cancelTagIn) (*mcp.CallToolResult, any, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, nil, ctx.Err()
	})
	sid := sdktest.Must(t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "demo", MCPServer: m}))
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	rc, err := c.Evals.Runs.Create(ctx, ws.ProjectID, evals.RunParams{SuiteName: "s", ServerIDs: []string{sid},
		Tests: []evals.Test{{Title: "t", Model: "anthropic/claude-haiku-4.5", Steps: []evals.Step{
			evals.ToolCallStep("one", "quick", map[string]any{"tag": "a"}),
			evals.InteractStep("two", map[string]any{"click": "x"}),
		}}}})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(20 * time.Second):
		t.Fatal("block never started")
	}
	if _, err := c.Evals.Runs.Cancel(ctx, ws.ProjectID, rc.RunID); err != nil {
		t.Fatal(err)
	}
	snap := func() string {
		its, err := sdktest.Collect(c.Evals.Runs.AllIterations(ctx, ws.ProjectID, rc.RunID, nil))
		if err != nil {
			t.Fatal(err)
		}
		steps, err := sdktest.Collect(c.Evals.Runs.AllSteps(ctx, ws.ProjectID, rc.RunID, its[0].ID, nil))
		if err != nil {
			t.Fatal(err)
		}
		_, terr := c.Evals.Runs.Trace(ctx, ws.ProjectID, rc.RunID, its[0].ID)
		b, _ := json.Marshal(map[string]any{"iterations": its, "steps": steps, "traceErr": terr != nil})
		return string(b)
	}
	before := snap()
	srv.Wait()
	if after := snap(); after != before {
		t.Errorf("cancelled iteration changed after the cancel answered:\nright after cancel: %s\nlater:              %s", before, after)
	}
}

// TestCancelledRunningIterationKeepsDuration: an iteration cancelled while
// running reports how long it ran (it reported 0, while the same iteration
// ended by the run's deadline reported its time).
func TestCancelledRunningIterationKeepsDuration(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	f := newEvalFix(t, projectopstest.WithClock(clk.Now), projectopstest.WithEvalParallelism(1))
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{blockTest("first")}})
	f.awaitBlocked(t)
	clk.Advance(5 * time.Second)
	if _, err := f.c.Evals.Runs.Cancel(t.Context(), f.ws.ProjectID, rc.RunID); err != nil {
		t.Fatal(err)
	}
	f.srv.Wait()
	iters, err := sdktest.Collect(f.c.Evals.Runs.AllIterations(t.Context(), f.ws.ProjectID, rc.RunID, nil))
	if err != nil {
		t.Fatal(err)
	}
	if it := iters[0]; it.Status != evals.StatusCancelled || ptrVal(it.DurationMs) != 5000.0 {
		t.Errorf("iteration cancelled after running 5 s: status %s, durationMs %v", it.Status, ptrVal(it.DurationMs))
	}
}

// An iteration still queued when its run times out never ran: like one
// still pending when the run is cancelled, it has no startedAt, no usage and
// no stored trace (404 TRACE_NOT_AVAILABLE). It used to be started on the
// dead context: startedAt set, usage zeros, and an empty trace served 200.
func TestEvalTimedOutQueuedIterationNeverStarted(t *testing.T) {
	fire := make(chan struct{})
	fired := closeOnce(fire)
	f := newEvalFix(t, projectopstest.WithEvalParallelism(1), projectopstest.WithEvalRunDeadlineFire(fire),
		// The first iteration runs until the deadline, which it passes.
		projectopstest.WithInteractHandler(func(ctx context.Context, _ evals.Step) error { fired(); <-ctx.Done(); return ctx.Err() }))
	slow := func(title string) evals.Test {
		return evals.Test{Title: title, Steps: []evals.Step{evals.InteractStep("i", map[string]any{"click": "x"})}}
	}
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{slow("first"), slow("second")}})
	run := f.awaitRun(t, rc.RunID)
	if run.Status != evals.StatusTimedOut {
		t.Fatalf("setup: run status %s, want timed_out", run.Status)
	}
	page, err := f.c.Evals.Runs.ListIterations(t.Context(), f.ws.ProjectID, rc.RunID, nil)
	if err != nil || len(page.Items) != 2 {
		t.Fatalf("iterations: %+v %v", page, err)
	}
	second := page.Items[1]
	if second.Status != evals.StatusCancelled {
		t.Fatalf("setup: second iteration %s, want cancelled", second.Status)
	}
	if !second.StartedAt.IsZero() || second.Usage != nil {
		t.Errorf("never-run iteration: startedAt=%v usage=%+v, want null/null", second.StartedAt, second.Usage)
	}
	if _, err := f.c.Evals.Runs.Trace(t.Context(), f.ws.ProjectID, rc.RunID, second.ID); !errors.Is(err, projectops.ErrTraceNotAvailable) {
		t.Errorf("trace of a never-run iteration: err %v; want 404 TRACE_NOT_AVAILABLE", err)
	}
}
