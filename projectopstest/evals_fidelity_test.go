package projectopstest_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// rawEval sends a raw request to the double (the shared call helper) and
// returns its status and decoded body.
func rawEval(t *testing.T, f *evalFix, method, path, body string) (int, map[string]any) {
	t.Helper()
	var b any
	if body != "" {
		b = body
	}
	r := inproc(f.srv).call(t, method, path, f.ws.APIKey, b)
	var m map[string]any
	_ = json.Unmarshal(r.body, &m)
	return r.status, m
}

// Cancelling a finished run is 409 with a message and no details, as the
// service answers it.
func TestCancelFinishedRunHasNoDetails(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("t", "hi")}})
	f.awaitRun(t, rc.RunID)
	st, m := rawEval(t, f, "POST", "/projects/"+f.ws.ProjectID+"/eval-runs/"+rc.RunID+"/cancel", "")
	if _, ok := m["details"]; st != 409 || ok || m["message"] != "Cannot cancel a run that already completed" {
		t.Errorf("cancel of a completed run: %d %v", st, m)
	}
}

// An iteration cancelled before it started has no duration (null), as
// the service computes one only from a startedAt.
func TestCancelledUnstartedIterationHasNoDuration(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalParallelism(1))
	blk := evals.Test{Title: "b", Steps: []evals.Step{evals.ToolCallStep("one", "block", map[string]any{"tag": "a"})}}
	blk2 := blk
	blk2.Title = "c"
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{blk, blk2}})
	f.awaitBlocked(t)
	if _, err := f.c.Evals.Runs.Cancel(t.Context(), f.ws.ProjectID, rc.RunID); err != nil {
		t.Fatal(err)
	}
	st, m := rawEval(t, f, "GET", "/projects/"+f.ws.ProjectID+"/eval-runs/"+rc.RunID+"/iterations", "")
	items, ok := m["items"].([]any)
	if st != 200 || !ok {
		t.Fatalf("iterations: %d %v", st, m)
	}
	unstarted := 0
	for _, x := range items {
		it := x.(map[string]any)
		if it["startedAt"] == nil {
			unstarted++
			if it["durationMs"] != nil {
				t.Errorf("iteration %v: never started but durationMs %v", it["title"], it["durationMs"])
			}
		}
	}
	if unstarted == 0 {
		t.Fatal("no iteration was cancelled before it started")
	}
}

// modelApiKeys takes any string for a key, as the service's schema does;
// an empty one just is not a key.
func TestModelAPIKeysEmptyValueAccepted(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	st, m := rawEval(t, f, "POST", "/projects/"+f.ws.ProjectID+"/eval-runs",
		`{"suiteName":"s","serverIds":["`+f.serverID+`"],"modelApiKeys":{"openai":""},"tests":[{"title":"a","model":"anthropic/claude-haiku-4.5","steps":[{"id":"p","kind":"prompt","prompt":"hi"}]}]}`)
	if st != 202 {
		t.Errorf("modelApiKeys {openai: \"\"}: %d %v, want 202", st, m)
	}
}

// The refusal names the status as stored, as the service's message does:
// a timed-out run "already timed_out".
func TestCancelTimedOutRunMessage(t *testing.T) {
	t.Parallel()
	fire := make(chan struct{})
	fired := closeOnce(fire)
	f := newEvalFix(t, projectopstest.WithEvalParallelism(1), projectopstest.WithEvalRunDeadlineFire(fire),
		projectopstest.WithInteractHandler(func(ctx context.Context, _ evals.Step) error { fired(); <-ctx.Done(); return ctx.Err() }))
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{{Title: "x", Steps: []evals.Step{evals.InteractStep("i", map[string]any{"click": "x"})}}}})
	if run := f.awaitRun(t, rc.RunID); run.Status != evals.StatusTimedOut {
		t.Fatalf("setup: run %s", run.Status)
	}
	st, m := rawEval(t, f, "POST", "/projects/"+f.ws.ProjectID+"/eval-runs/"+rc.RunID+"/cancel", "")
	if st != 409 || m["message"] != "Cannot cancel a run that already timed_out" {
		t.Errorf("cancel of a timed-out run: %d %v", st, m)
	}
}
