package projectopstest_test

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
)

func blockTest(title string) evals.Test {
	return evals.Test{Title: title, Steps: []evals.Step{
		evals.ToolCallStep("wait", "block", map[string]any{"tag": title}),
		evals.AssertCalledWith("check", "block", nil),
	}}
}

func TestEvalCancelStopsInFlightMCPCalls(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalParallelism(1))
	ctx := t.Context()
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{blockTest("first"), blockTest("second")}})
	if tag := f.awaitBlocked(t); tag != "first" {
		t.Fatalf("blocked = %s", tag)
	}
	run, err := f.c.Evals.Runs.Get(ctx, f.ws.ProjectID, rc.RunID)
	if err != nil || run.Status != evals.StatusRunning {
		t.Fatalf("run = %+v, %v; want running", run, err)
	}
	run, err = f.c.Evals.Runs.Cancel(ctx, f.ws.ProjectID, rc.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != evals.StatusCancelled || run.CompletedAt.IsZero() || run.Result != evals.ResultFailed {
		t.Fatalf("cancelled run = %+v", run)
	}
	// The in-flight MCP call saw its context end.
	select {
	case out := <-f.calls:
		if !out.cancelled || out.tag != "first" {
			t.Fatalf("block call ended %+v, want cancelled", out)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the in-flight tool call was not cancelled")
	}
	f.srv.Wait() // the engine's goroutines are done: nothing may change any more
	iters, err := sdktest.Collect(f.c.Evals.Runs.AllIterations(ctx, f.ws.ProjectID, rc.RunID, nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range iters {
		if it.Status != evals.StatusCancelled {
			t.Errorf("iteration %s status %s, want cancelled", it.Title, it.Status)
		}
	}
	steps, err := sdktest.Collect(f.c.Evals.Runs.AllSteps(ctx, f.ws.ProjectID, rc.RunID, iters[1].ID, nil))
	if err != nil || steps[0].Status != evals.StepPending {
		t.Errorf("never-started iteration steps = %+v, %v", steps, err)
	}
	// Cancelling again succeeds without change.
	again, err := f.c.Evals.Runs.Cancel(ctx, f.ws.ProjectID, rc.RunID)
	if err != nil || again.Status != evals.StatusCancelled || again.CompletedAt != run.CompletedAt || *again.Summary != *run.Summary {
		t.Fatalf("second cancel = %+v, %v", again, err)
	}
	// The cap slot was released at once.
	f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("a", "x")}})
	f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("b", "x")}})
}

func TestEvalCancelFinishedRunConflicts(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("a", "x")}})
	f.awaitRun(t, rc.RunID)
	_, err := f.c.Evals.Runs.Cancel(t.Context(), f.ws.ProjectID, rc.RunID)
	e := sdktest.WantError(t, err, projectops.CodeConflict, true)
	if !errors.Is(err, projectops.ErrConflict) || e.StatusCode != http.StatusConflict {
		t.Fatalf("err = %v", err)
	}
}

func TestEvalRunDeadline(t *testing.T) {
	t.Parallel()
	fire := make(chan struct{})
	f := newEvalFix(t, projectopstest.WithEvalRunDeadlineFire(fire), projectopstest.WithEvalParallelism(1))
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{blockTest("slow"), echoTest("later", "x")}})
	f.awaitBlocked(t)
	close(fire) // the deadline passes while the block call is in flight
	run := f.awaitRun(t, rc.RunID)
	if run.Status != evals.StatusTimedOut || run.Result != evals.ResultFailed {
		t.Fatalf("run = %+v", run)
	}
	if out := <-f.calls; !out.cancelled {
		t.Fatalf("block call %+v, want cancelled by the deadline", out)
	}
	_, err := f.c.Evals.Runs.Cancel(t.Context(), f.ws.ProjectID, rc.RunID)
	sdktest.WantError(t, err, projectops.CodeConflict, true)
	// Wait treats timed_out as terminal.
	w, err := f.c.Evals.Runs.Wait(t.Context(), f.ws.ProjectID, rc.RunID)
	if err != nil || w.Status != evals.StatusTimedOut {
		t.Fatalf("Wait = %+v, %v", w, err)
	}
	iters, err := sdktest.Collect(f.c.Evals.Runs.AllIterations(t.Context(), f.ws.ProjectID, rc.RunID, nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range iters {
		if it.Status != evals.StatusCancelled || it.Error != "run deadline exceeded" {
			t.Errorf("iteration %+v", it)
		}
	}
}

// holdRuns makes every iteration wait in BeforeIteration until release is
// closed or its run ends.
func holdRuns(release chan struct{}) projectopstest.Option {
	return projectopstest.WithEvalHooks(projectopstest.EvalHooks{
		BeforeIteration: func(ctx context.Context, _, _ string) error {
			select {
			case <-ctx.Done():
			case <-release:
			}
			return nil
		},
	})
}

func TestEvalConcurrentCreatesHitTheCap(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	f := newEvalFix(t, holdRuns(release))
	// holdRuns replaced the fixture's RunFinished hook; runs are held.
	var wg sync.WaitGroup
	var mu sync.Mutex
	var created []string
	limited := 0
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rc, err := f.c.Evals.Runs.Create(context.Background(), f.ws.ProjectID, evals.RunParams{
				SuiteName: "s", ServerIDs: []string{f.serverID},
				Tests: []evals.Test{{Title: "t", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "hi")}}}})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				created = append(created, rc.RunID)
			case errors.Is(err, projectops.ErrConcurrentRunLimit):
				e, _ := err.(*projectops.Error)
				if e.StatusCode != http.StatusTooManyRequests || e.Code != projectops.CodeRateLimited {
					t.Errorf("err = %v", err)
				}
				limited++
			default:
				t.Errorf("create %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if len(created) != projectopstest.DefaultEvalConcurrency || limited != 12-len(created) {
		t.Fatalf("created %d, limited %d", len(created), limited)
	}
	// The refusal was not retried by the SDK: one request per create.
	n := 0
	for _, r := range f.srv.Requests() {
		if r.Route == "POST /projects/{projectId}/eval-runs" {
			n++
		}
	}
	if n != 12 {
		t.Errorf("%d create requests, want 12 (CONCURRENT_RUN_LIMIT is not retried)", n)
	}
	close(release)
	for _, id := range created {
		if run, err := f.c.Evals.Runs.Wait(t.Context(), f.ws.ProjectID, id, evals.WithPollInterval(time.Millisecond, 5*time.Millisecond)); err != nil || run.Status != evals.StatusCompleted {
			t.Errorf("run %s = %+v, %v", id, run, err)
		}
	}
	// Slots free again.
	f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("after", "x")}})
}

func TestEvalConcurrencyIsConfigurable(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	f := newEvalFix(t, holdRuns(release), projectopstest.WithEvalConcurrency(1))
	f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("a", "x")}})
	_, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, evals.RunParams{SuiteName: "s",
		ServerIDs: []string{f.serverID}, Tests: []evals.Test{{Title: "t", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "hi")}}}})
	if !errors.Is(err, projectops.ErrConcurrentRunLimit) {
		t.Fatalf("err = %v", err)
	}
}
