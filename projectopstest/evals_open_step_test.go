package projectopstest_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
)

// TestRunCreateKeepsWidgetAssertionAndStepExtras: the reference's
// EvalTestStep is an open object and its assertion a predicate or widget
// assertion. A run whose test, read from JSON, has a widget assertion and
// steps with members the SDK does not model is accepted; the double keeps
// those members on the stored step (the interact handler gets them) and
// reports the widget assertion skipped, as it evaluates toolCalledWith only.
func TestRunCreateKeepsWidgetAssertionAndStepExtras(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []byte
	f := newEvalFix(t, projectopstest.WithInteractHandler(func(_ context.Context, st evals.Step) error {
		b, err := json.Marshal(st)
		mu.Lock()
		defer mu.Unlock()
		got = b
		return err
	}))
	const tc = `{"title":"widget","model":"anthropic/claude-haiku-4.5","steps":[
		{"id":"click","kind":"interact","action":{"click":"#buy"},"timeoutMs":1500},
		{"id":"see","kind":"assert","assertion":{"type":"widgetVisible","selector":"#cart","timeoutMs":500},"x-note":"kept"}]}`
	var test evals.Test
	if err := json.Unmarshal([]byte(tc), &test); err != nil {
		t.Fatal(err)
	}
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{test}})
	f.awaitRun(t, rc.RunID)
	mu.Lock()
	if want := `{"id":"click","kind":"interact","action":{"click":"#buy"},"timeoutMs":1500}`; string(got) != want {
		t.Errorf("interact handler got step %s, want %s", got, want)
	}
	mu.Unlock()
	iters, err := sdktest.Collect(f.c.Evals.Runs.AllIterations(t.Context(), f.ws.ProjectID, rc.RunID, nil))
	if err != nil {
		t.Fatal(err)
	}
	steps, err := sdktest.Collect(f.c.Evals.Runs.AllSteps(t.Context(), f.ws.ProjectID, rc.RunID, iters[0].ID, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 2 || steps[0].Status != evals.StepOK || steps[1].Status != evals.StepSkipped {
		t.Errorf("step verdicts: %+v", steps)
	}
	// The same test sent as raw JSON, not through the SDK's types.
	body := json.RawMessage(`{"suiteName":"raw","serverIds":["` + f.serverID + `"],"tests":[` + tc + `]}`)
	if r := inproc(f.srv).call(t, "POST", "/projects/"+f.ws.ProjectID+"/eval-runs", f.ws.APIKey, body); r.status != 202 {
		t.Errorf("raw run create: status %d (%s), want 202", r.status, r.body)
	}
	suite := json.RawMessage(`{"name":"raw suite","model":"anthropic/claude-haiku-4.5","serverIds":["` + f.serverID + `"],"tests":[` + tc + `]}`)
	if r := inproc(f.srv).call(t, "POST", "/projects/"+f.ws.ProjectID+"/eval-suites", f.ws.APIKey, suite); r.status != 201 {
		t.Errorf("raw suite create: status %d (%s), want 201", r.status, r.body)
	}
}
