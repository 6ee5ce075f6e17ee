package projectopstest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// An iteration the run's deadline stopped before its first step never ran:
// like one a cancel stopped, it has no usage (tokensUsed and usage null)
// and no trace (404 TRACE_NOT_AVAILABLE, api-spec.md 4.4), not a zero
// usage and an empty trace.
func TestTimedOutRunUnranIteration(t *testing.T) {
	fire := make(chan struct{})
	fired := closeOnce(fire)
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(100000, 100000),
		projectopstest.WithEvalRunDeadlineFire(fire),
		projectopstest.WithEvalHooks(projectopstest.EvalHooks{BeforeIteration: func(ctx context.Context, runID, itID string) error {
			fired() // the deadline passes before the first step
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

// A run whose deadline passes while its servers' tools are being listed is
// timed_out: the listing the deadline cut short is not the server failing
// (which would make the run failed). The deadline fires from inside the
// server's tools/list, which answers only once the test is over.
func TestRunDeadlineDuringToolListing(t *testing.T) {
	t.Parallel()
	fire, release := make(chan struct{}), make(chan struct{})
	fired := closeOnce(fire)
	f := newEvalFix(t, projectopstest.WithEvalRunDeadlineFire(fire))
	t.Cleanup(func() { close(release) }) // runs before the server's close
	m := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
	mcp.AddTool(m, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Echo: " + in.Message}}}, nil, nil
	})
	m.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				fired() // the run lists its server's tools once
				select {
				case <-ctx.Done():
				case <-release:
				}
			}
			return next(ctx, method, req)
		}
	})
	id, err := f.srv.AddServer(projectopstest.ServerSpec{ProjectID: f.ws.ProjectID, Name: "slow", MCPServer: m})
	if err != nil {
		t.Fatal(err)
	}
	rc := f.create(t, evals.RunParams{ServerIDs: []string{id}, Tests: []evals.Test{echoTest("a", "x")}})
	run := f.awaitRun(t, rc.RunID)
	if run.Status != evals.StatusTimedOut {
		t.Fatalf("run status %q, want timed_out", run.Status)
	}
	if projectopstest.RunThrew(f.srv, run.ID) {
		t.Error("a listing the deadline cut short is recorded as the server failing")
	}
	page, err := f.c.Evals.Runs.ListIterations(t.Context(), f.ws.ProjectID, run.ID, nil)
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("iterations: %v %+v", err, page)
	}
	if it := page.Items[0]; it.Status != evals.StatusCancelled || it.Error != "run deadline exceeded" {
		t.Errorf("iteration %q (%q), want cancelled by the run deadline", it.Status, it.Error)
	}
}

// A cancel that comes after the run's deadline passed, while an iteration
// that does not heed it keeps the run from settling, finds the run
// timed_out (409, "already timed_out"), as it reads once settled: the
// deadline, not the later cancel, decides the run's end.
func TestCancelAfterDeadlineBeforeSettle(t *testing.T) {
	t.Parallel()
	cancelInDeadlineWindow(t, false, evals.StatusTimedOut)
}

// A run one of whose servers could not list its tools is failed, as its
// executor settles it even past the deadline: a cancel in the deadline
// window finds it failed (409, "already failed"), not timed_out. The
// listing error is recorded as the executor records it (MarkRunThrew),
// since a run whose listing failed runs no step the test could hold.
func TestCancelAfterDeadlineKeepsListingFailure(t *testing.T) {
	t.Parallel()
	cancelInDeadlineWindow(t, true, evals.StatusFailed)
}

// cancelInDeadlineWindow cancels a run after its deadline passed and
// before its executor settled it (an iteration ignores the deadline until
// the cancel is answered), the run's listing having failed when threw, and
// checks the cancel is refused with want, the status the run then keeps.
func cancelInDeadlineWindow(t *testing.T, threw bool, want evals.Status) {
	t.Helper()
	fire, past, release := make(chan struct{}), make(chan struct{}), make(chan struct{})
	fired, passed, released := closeOnce(fire), closeOnce(past), closeOnce(release)
	f := newEvalFix(t, projectopstest.WithEvalRunDeadlineFire(fire),
		projectopstest.WithInteractHandler(func(ctx context.Context, _ evals.Step) error {
			fired()
			<-ctx.Done() // the deadline has passed
			passed()
			<-release // and the iteration goes on regardless
			return nil
		}))
	t.Cleanup(released) // a test that stops early lets the iteration end before the server closes
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{{Title: "x", Steps: []evals.Step{evals.InteractStep("i", map[string]any{"click": "x"})}}}})
	select {
	case <-past:
	case <-time.After(time.Minute): // a hang made a failure, not a timing
		t.Fatal("the iteration never saw the deadline pass")
	}
	if threw {
		projectopstest.MarkRunThrew(f.srv, rc.RunID)
	}
	st, m := rawEval(t, f, "POST", "/projects/"+f.ws.ProjectID+"/eval-runs/"+rc.RunID+"/cancel", "")
	released()
	if st != 409 || m["message"] != "Cannot cancel a run that already "+string(want) {
		t.Errorf("cancel after the deadline: %d %v, want 409 already %s", st, m, want)
	}
	if run := f.awaitRun(t, rc.RunID); run.Status != want {
		t.Errorf("run status %q, want %s", run.Status, want)
	}
	page, err := f.c.Evals.Runs.ListIterations(t.Context(), f.ws.ProjectID, rc.RunID, nil)
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("iterations: %v %+v", err, page)
	}
	if it := page.Items[0]; it.Status != evals.StatusCancelled {
		t.Errorf("iteration %q (%q), want cancelled", it.Status, it.Error)
	}
	if it := page.Items[0]; want == evals.StatusTimedOut && it.Error != "run deadline exceeded" {
		t.Errorf("iteration error %q, want cancelled by the run deadline", it.Error)
	}
}
