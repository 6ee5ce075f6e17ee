package projectopstest_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
)

// TestToolCalledWithPredicate: a toolCalledWith assertion is the service's
// predicate, {toolName, args: {args, argumentMatching?}, minCount?}: its
// row applies its matching modes and count, and the flat args the double
// took before (which the service's schema refuses) are a VALIDATION_ERROR.
func TestToolCalledWithPredicate(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	ctx := t.Context()
	check := func(a evals.Assertion) evals.Test {
		a.Type, a.ToolName = evals.AssertToolCalledWith, "echo"
		return evals.Test{Title: "t", Steps: []evals.Step{evals.PromptStep("ask", "Use echo with message=ho"),
			{ID: "check", Kind: evals.KindAssert, Assertion: &a}}}
	}
	cases := []struct {
		name string
		a    evals.Assertion
		pass bool
	}{
		{"partial", evals.Assertion{Args: &evals.ArgMatcher{Args: map[string]any{"message": "ho"}}}, true},
		{"type word", evals.Assertion{Args: &evals.ArgMatcher{Args: map[string]any{"message": "string"}}}, true},
		{"wrong type word", evals.Assertion{Args: &evals.ArgMatcher{Args: map[string]any{"message": "number"}}}, false},
		{"exact with a missing key", evals.Assertion{Args: &evals.ArgMatcher{ArgumentMatching: evals.ArgumentMatchingExact}}, false},
		{"ignore", evals.Assertion{Args: &evals.ArgMatcher{Args: map[string]any{"message": "hi"}, ArgumentMatching: evals.ArgumentMatchingIgnore}}, true},
		{"twice, called once", evals.Assertion{Args: &evals.ArgMatcher{}, MinCount: 2}, false},
	}
	var tests []evals.Test
	for _, c := range cases {
		tt := check(c.a)
		tt.Title = c.name
		tests = append(tests, tt)
	}
	rc := f.create(t, evals.RunParams{Tests: tests})
	f.awaitRun(t, rc.RunID)
	iters, err := sdktest.Collect(f.c.Evals.Runs.AllIterations(ctx, f.ws.ProjectID, rc.RunID, nil))
	if err != nil {
		t.Fatal(err)
	}
	for i, it := range iters {
		steps, err := sdktest.Collect(f.c.Evals.Runs.AllSteps(ctx, f.ws.ProjectID, rc.RunID, it.ID, nil))
		if err != nil {
			t.Fatal(err)
		}
		if (steps[1].Status == evals.StepOK) != cases[i].pass {
			t.Errorf("%s: assert row %s (%q), want ok %v", cases[i].name, steps[1].Status, steps[1].Reason, cases[i].pass)
		}
	}
	// The prompt's turn matches partially whatever the assertion says, as
	// the service's matcher does: the ignore assertion's row is ok, but its
	// call is missing from the turn and the iteration fails.
	tr, err := f.c.Evals.Runs.Trace(ctx, f.ws.ProjectID, rc.RunID, iters[4].ID)
	if err != nil {
		t.Fatal(err)
	}
	if p := tr.Prompts[0]; p.Passed || len(p.Missing) != 1 || iters[4].Result != evals.ResultFailed {
		t.Errorf("ignore assertion: result %s, analysis = %+v", iters[4].Result, p)
	}

	tg := inproc(f.srv)
	path := "/projects/" + f.ws.ProjectID + "/eval-runs"
	step := func(assertion map[string]any) map[string]any {
		return map[string]any{"suiteName": "s", "serverIds": []string{f.serverID}, "tests": []any{map[string]any{
			"title": "t", "model": "openai/gpt-4o-mini", "provider": "openai", "runs": 1, "steps": []any{
				map[string]any{"id": "p", "kind": "prompt", "prompt": "hi"},
				map[string]any{"id": "a", "kind": "assert", "assertion": assertion}}}}}
	}
	for field, a := range map[string]map[string]any{
		"tests[0].steps[1].assertion.args.args": {"type": "toolCalledWith", "toolName": "echo", "args": map[string]any{"message": "hi"}},
		"tests[0].steps[1].assertion.args.argumentMatching": {"type": "toolCalledWith", "toolName": "echo",
			"args": map[string]any{"args": map[string]any{}, "argumentMatching": "fuzzy"}},
	} {
		tg.call(t, http.MethodPost, path, f.ws.APIKey, step(a)).wantField(t, field)
	}
	if r := tg.call(t, http.MethodPost, path, f.ws.APIKey, step(map[string]any{"type": "toolCalledWith", "toolName": "echo",
		"args": map[string]any{"args": map[string]any{"message": "hi"}}})); r.status != http.StatusAccepted {
		t.Errorf("the reference's shape: %d %s", r.status, r.body)
	}
}

// The trace's prompt analysis pairs expected and actual calls as the
// verdict does: an ignore assertion listed first does not take the call a
// later, stricter assertion needs (the analysis reported it missing while
// the iteration passed).
func TestPromptAnalysisPairsLenientLast(t *testing.T) {
	t.Parallel()
	model := projectopstest.ModelFunc(func(_ context.Context, req projectopstest.ModelRequest) (*projectopstest.ModelResponse, error) {
		if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == "user" {
			return &projectopstest.ModelResponse{Text: "two calls", ToolCalls: []evals.ToolCall{
				{ToolName: "echo", Arguments: map[string]any{"message": "b"}},
				{ToolName: "echo", Arguments: map[string]any{"message": "a"}},
			}}, nil
		}
		return &projectopstest.ModelResponse{Text: "done"}, nil
	})
	f := newEvalFix(t, projectopstest.WithEvalModel(model))
	ctx := t.Context()
	test := evals.Test{Title: "t", Steps: []evals.Step{evals.PromptStep("ask", "Use echo twice"),
		{ID: "ignore", Kind: evals.KindAssert, Assertion: &evals.Assertion{Type: evals.AssertToolCalledWith, ToolName: "echo",
			Args: &evals.ArgMatcher{Args: map[string]any{"message": "a"}, ArgumentMatching: evals.ArgumentMatchingIgnore}}},
		{ID: "partial", Kind: evals.KindAssert, Assertion: &evals.Assertion{Type: evals.AssertToolCalledWith, ToolName: "echo",
			Args: &evals.ArgMatcher{Args: map[string]any{"message": "b"}}}},
	}}
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{test}})
	f.awaitRun(t, rc.RunID)
	iters, err := sdktest.Collect(f.c.Evals.Runs.AllIterations(ctx, f.ws.ProjectID, rc.RunID, nil))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := f.c.Evals.Runs.Trace(ctx, f.ws.ProjectID, rc.RunID, iters[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if p := tr.Prompts[0]; iters[0].Result != evals.ResultPassed || !p.Passed || len(p.Missing) != 0 {
		t.Errorf("verdict %s, analysis passed %v, missing %+v", iters[0].Result, p.Passed, p.Missing)
	}
}
