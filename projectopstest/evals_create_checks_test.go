package projectopstest_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// caseIds can only name a stored suite's cases: with a suite the request
// would create it is refused before anything is authored, so neither the
// request nor its retry under the same Idempotency-Key leaves a suite.
func TestEvalRunCaseIDsNeedSuiteID(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	p := evals.RunParams{SuiteName: "s", ServerIDs: []string{f.serverID}, CaseIDs: []string{"case_nope"},
		Tests: []evals.Test{echoTest("one", "a")}}
	p.Tests[0].Model = "anthropic/claude-haiku-4.5"
	for i := range 2 {
		_, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, p, option.WithIdempotencyKey("k1"))
		var e *shared.Error
		if !errors.As(err, &e) || e.Code != shared.CodeValidation || e.Details["field"] != "caseIds" {
			t.Fatalf("attempt %d: err = %v, want 400 VALIDATION_ERROR on caseIds", i, err)
		}
	}
	page, err := f.c.Evals.Suites.List(t.Context(), f.ws.ProjectID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(page.Items); n != 0 {
		t.Errorf("two refused requests left %d suites: %+v", n, page.Items)
	}
}

// The service checks the request's test models (assertInlineTestModelsValid)
// before it reads the suite's environments: an unknown model is refused
// ahead of ENVIRONMENT_NOT_ATTACHED, on a suiteRerun too.
func TestEvalRunModelCheckedBeforeEnvironment(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("one", "a")}})
	f.awaitRun(t, rc.RunID)
	bad := echoTest("two", "b")
	bad.Model, bad.Provider = "claude-nonesuch", "anthropic"
	for _, rerun := range []bool{false, true} {
		_, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, evals.RunParams{SuiteID: rc.SuiteID,
			EnvironmentID: "env_x", SuiteRerun: rerun, Tests: []evals.Test{bad}})
		var e *shared.Error
		if !errors.As(err, &e) || e.Code != shared.CodeValidation || e.Details["model"] != "claude-nonesuch" {
			t.Errorf("suiteRerun %v: err = %v, want the unknown model's refusal", rerun, err)
		}
	}
}

// The service's schema takes skillsOverride only as "exclude"
// (z.literal("exclude").optional()): any other value, null included, is
// 400 on the field.
func TestEvalRunSkillsOverrideOnlyExclude(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	tg := inproc(f.srv)
	create := func(v any) result {
		t.Helper()
		p := map[string]any{"suiteName": "s", "serverIds": []string{f.serverID}, "skillsOverride": v,
			"tests": []evals.Test{{Title: "t", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "hi")}}}}
		req := must[*http.Request](t)(http.NewRequestWithContext(t.Context(), http.MethodPost,
			projectopstest.InProcessURL+"/projects/"+f.ws.ProjectID+"/eval-runs", jsonBody(t, p)))
		req.Header.Set("Authorization", "Bearer "+f.ws.APIKey)
		resp := must[*http.Response](t)(tg.client.Do(req))
		defer resp.Body.Close()
		return result{status: resp.StatusCode, header: resp.Header, body: must[[]byte](t)(readAll(resp))}
	}
	for _, v := range []any{"include", "", nil, true} {
		create(v).wantField(t, "skillsOverride")
	}
	if r := create("exclude"); r.status != http.StatusAccepted {
		t.Errorf(`skillsOverride "exclude": status %d %s, want 202`, r.status, r.body)
	}
}

// A launch that is not a rerun saves its serverIds as the suite's server
// selection (the service's authorEvalSuite updates the suite's
// environment), as does a rerun with refreshSnapshot; a rerun without it
// (suiteRerun, or a bare suiteId, always a rerun) leaves it. A later bare rerun runs on the saved selection.
func TestEvalRunLaunchSavesServerSelection(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	m := mcp.NewServer(&mcp.Implementation{Name: "other", Version: "1.0.0"}, nil)
	mcp.AddTool(m, &mcp.Tool{Name: "echo", Description: "Echo a message"},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Echo: " + in.Message}}}, nil, nil
		})
	other, err := f.srv.AddServer(projectopstest.ServerSpec{ProjectID: f.ws.ProjectID, Name: "other", MCPServer: m})
	if err != nil {
		t.Fatal(err)
	}
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("one", "a")}})
	f.awaitRun(t, rc.RunID)
	saved := func(step string) string {
		t.Helper()
		bare := f.create(t, evals.RunParams{SuiteID: rc.SuiteID})
		f.awaitRun(t, bare.RunID)
		if len(bare.Servers) != 1 {
			t.Fatalf("%s: bare rerun servers = %+v, want one", step, bare.Servers)
		}
		return bare.Servers[0].ID
	}
	launch := func(rerun, refresh bool, serverID string) {
		t.Helper()
		run := f.create(t, evals.RunParams{SuiteID: rc.SuiteID, ServerIDs: []string{serverID},
			SuiteRerun: rerun, RefreshSnapshot: refresh, Tests: []evals.Test{echoTest("one", "a")}})
		f.awaitRun(t, run.RunID)
	}
	bare := f.create(t, evals.RunParams{SuiteID: rc.SuiteID, ServerIDs: []string{other}})
	f.awaitRun(t, bare.RunID)
	if got := saved("bare rerun"); got != f.serverID {
		t.Errorf("after a bare rerun on %s: saved server %s, want %s (unchanged)", other, got, f.serverID)
	}
	launch(true, false, other)
	if got := saved("suiteRerun"); got != f.serverID {
		t.Errorf("after a suiteRerun on %s: saved server %s, want %s (unchanged)", other, got, f.serverID)
	}
	launch(true, true, other)
	if got := saved("refreshSnapshot"); got != other {
		t.Errorf("after a refreshSnapshot rerun on %s: saved server %s, want it", other, got)
	}
	launch(false, false, f.serverID)
	if got := saved("launch"); got != f.serverID {
		t.Errorf("after a launch on %s: saved server %s, want it", f.serverID, got)
	}
}
