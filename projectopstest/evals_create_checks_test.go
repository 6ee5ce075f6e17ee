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

// addOtherServer adds a second echo server, "other", to f's project.
func addOtherServer(t *testing.T, f *evalFix) string {
	t.Helper()
	m := mcp.NewServer(&mcp.Implementation{Name: "other", Version: "1.0.0"}, nil)
	mcp.AddTool(m, &mcp.Tool{Name: "echo", Description: "Echo a message"},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Echo: " + in.Message}}}, nil, nil
		})
	id, err := f.srv.AddServer(projectopstest.ServerSpec{ProjectID: f.ws.ProjectID, Name: "other", MCPServer: m})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// savedServer reads a suite's saved server selection as a bare rerun runs
// it (its one server, named as saved), and waits for that run.
func savedServer(t *testing.T, f *evalFix, suiteID, step string) evals.ServerRef {
	t.Helper()
	bare := f.create(t, evals.RunParams{SuiteID: suiteID})
	f.awaitRun(t, bare.RunID)
	if len(bare.Servers) != 1 {
		t.Fatalf("%s: bare rerun servers = %+v, want one", step, bare.Servers)
	}
	return bare.Servers[0]
}

// A launch that is not a rerun saves its serverIds as the suite's server
// selection (the service's authorEvalSuite updates the suite's
// environment), as does a rerun with refreshSnapshot, a bare suiteId
// included; a rerun without it (suiteRerun, or a bare suiteId, always a
// rerun) leaves it. A later bare rerun runs on the saved selection.
func TestEvalRunLaunchSavesServerSelection(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	other := addOtherServer(t, f)
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("one", "a")}})
	f.awaitRun(t, rc.RunID)
	saved := func(step string) string {
		t.Helper()
		return savedServer(t, f, rc.SuiteID, step).ID
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
	bare = f.create(t, evals.RunParams{SuiteID: rc.SuiteID, ServerIDs: []string{other}, RefreshSnapshot: true})
	f.awaitRun(t, bare.RunID)
	if got := saved("bare refreshSnapshot"); got != other {
		t.Errorf("after a bare suiteId with refreshSnapshot on %s: saved server %s, want it", other, got)
	}
}

// The serverNames a launch sends are saved with its serverIds, whether the
// launch creates the suite (the service's createTestSuite) or updates a
// stored one (updateTestSuite): a later bare rerun's servers carry them.
func TestEvalRunLaunchSavesServerNames(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	rc := f.create(t, evals.RunParams{ServerIDs: []string{f.serverID}, ServerNames: []string{"Alpha"},
		Tests: []evals.Test{echoTest("one", "a")}})
	f.awaitRun(t, rc.RunID)
	if got := savedServer(t, f, rc.SuiteID, "new suite").Name; got != "Alpha" {
		t.Errorf("after the launch creating the suite with serverNames [Alpha]: bare rerun names the server %q", got)
	}
	launch := f.create(t, evals.RunParams{SuiteID: rc.SuiteID, ServerIDs: []string{f.serverID}, ServerNames: []string{"Beta"},
		Tests: []evals.Test{echoTest("one", "a")}})
	f.awaitRun(t, launch.RunID)
	if got := savedServer(t, f, rc.SuiteID, "stored suite").Name; got != "Beta" {
		t.Errorf("after a launch on the stored suite with serverNames [Beta]: bare rerun names the server %q", got)
	}
}

// serverNames not parallel to serverIds are not saved, on either path: the
// service's buildPersistedSuiteEnvironment keeps names only pairwise with
// the ids, so the suite's selection is the ids alone and a bare rerun
// names its server as the project does ("demo"), not by a name sent
// earlier.
func TestEvalRunNonParallelServerNamesNotSaved(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	rc := f.create(t, evals.RunParams{ServerIDs: []string{f.serverID}, ServerNames: []string{"x", "y"},
		Tests: []evals.Test{echoTest("one", "a")}})
	f.awaitRun(t, rc.RunID)
	if got := savedServer(t, f, rc.SuiteID, "new suite").Name; got != "demo" {
		t.Errorf("after the launch creating the suite with serverNames [x y] for one id: bare rerun names the server %q, want demo", got)
	}
	for _, names := range [][]string{{"Alpha"}, {"x", "y"}} {
		launch := f.create(t, evals.RunParams{SuiteID: rc.SuiteID, ServerIDs: []string{f.serverID}, ServerNames: names,
			Tests: []evals.Test{echoTest("one", "a")}})
		f.awaitRun(t, launch.RunID)
	}
	if got := savedServer(t, f, rc.SuiteID, "stored suite").Name; got != "demo" {
		t.Errorf("after a launch on the stored suite with serverNames [x y] for one id: bare rerun names the server %q, want demo (the earlier [Alpha] replaced)", got)
	}
}

// A replay of a launch (the same Idempotency-Key) saves its serverIds as
// the suite's selection although it starts no run: the service authors the
// suite, its environment included, before the run-level dedupe.
func TestEvalRunReplaySavesServerSelection(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	other := addOtherServer(t, f)
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("one", "a")}})
	f.awaitRun(t, rc.RunID)
	p := evals.RunParams{SuiteID: rc.SuiteID, ServerIDs: []string{f.serverID}, Tests: []evals.Test{echoTest("one", "a")}}
	p.Tests[0].Model = "anthropic/claude-haiku-4.5"
	first, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, p, option.WithIdempotencyKey("replay"))
	if err != nil {
		t.Fatal(err)
	}
	f.awaitRun(t, first.RunID)
	p.ServerIDs, p.ServerNames = []string{other}, []string{"Gamma"}
	again, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, p, option.WithIdempotencyKey("replay"))
	if err != nil {
		t.Fatal(err)
	}
	if !again.Deduped || again.RunID != first.RunID {
		t.Fatalf("replay = %+v, want run %s deduped", again, first.RunID)
	}
	if got := savedServer(t, f, rc.SuiteID, "replay"); got.ID != other || got.Name != "Gamma" {
		t.Errorf("after a replay on %s named Gamma: bare rerun runs on %+v, want it", other, got)
	}
}

// The caseIds 404 that follows authoring (inline tests, caseIds naming none
// of a stored suite's cases) leaves the tests upserted and the launch's
// server selection saved, and a retry adds nothing; on a suiteRerun it
// saves the selection alone, and only with refreshSnapshot.
func TestEvalRunCaseIDs404KeepsWhatWasAuthored(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	other := addOtherServer(t, f)
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("one", "a")}})
	f.awaitRun(t, rc.RunID)
	demo := savedServer(t, f, rc.SuiteID, "first").ID
	refused := func(step string, p evals.RunParams) {
		t.Helper()
		p.SuiteID, p.CaseIDs = rc.SuiteID, []string{"case_nope"}
		for i := range p.Tests {
			p.Tests[i].Model = "anthropic/claude-haiku-4.5" // f.create's default is not this call's
		}
		_, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, p)
		if e, ok := errors.AsType[*shared.Error](err); !ok || e.Code != shared.CodeNotFound {
			t.Fatalf("%s: err = %v, want 404 NOT_FOUND", step, err)
		}
	}
	total := func(step string, want int) {
		t.Helper()
		if got := f.awaitRun(t, f.create(t, evals.RunParams{SuiteID: rc.SuiteID}).RunID).Summary.Total; got != want {
			t.Errorf("%s: a bare rerun ran %d iterations, want %d", step, got, want)
		}
	}
	for _, step := range []string{"launch", "retry"} {
		refused(step, evals.RunParams{ServerIDs: []string{other}, Tests: []evals.Test{echoTest("two", "b")}})
	}
	if got := savedServer(t, f, rc.SuiteID, "after the 404").ID; got != other {
		t.Errorf("after the 404, saved server %s, want the launch's %s", got, other)
	}
	total("after the 404 and its retry", 2)
	three := []evals.Test{echoTest("three", "c")}
	refused("suiteRerun", evals.RunParams{ServerIDs: []string{demo}, SuiteRerun: true, Tests: three})
	if got := savedServer(t, f, rc.SuiteID, "suiteRerun").ID; got != other {
		t.Errorf("after a suiteRerun's 404, saved server %s, want %s kept", got, other)
	}
	refused("suiteRerun with refreshSnapshot", evals.RunParams{ServerIDs: []string{demo}, SuiteRerun: true,
		RefreshSnapshot: true, Tests: three})
	if got := savedServer(t, f, rc.SuiteID, "refreshSnapshot").ID; got != demo {
		t.Errorf("after a refreshSnapshot suiteRerun's 404, saved server %s, want %s", got, demo)
	}
	total("after the suiteRerun 404s", 2)
}

// An assert step's toolCalledWith assertion whose args is not an object,
// or whose toolName is not a string, is a VALIDATION_ERROR naming the
// member by its position, on suite create and run create alike (it used to
// be named by Go's struct path, "tests.Test.steps.assertion.args").
func TestAssertStepWrongTypeNamedByPosition(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	tg := inproc(f.srv)
	p := "/projects/" + f.ws.ProjectID
	cases := []struct {
		name      string
		assertion map[string]any
		want      string
	}{
		{"args not an object", map[string]any{"type": "toolCalledWith", "toolName": "echo", "args": "text"},
			"tests[0].steps[1].assertion.args"},
		{"args an array", map[string]any{"type": "toolCalledWith", "toolName": "echo", "args": []any{1}},
			"tests[0].steps[1].assertion.args"},
		{"toolName not a string", map[string]any{"type": "toolCalledWith", "toolName": 5, "args": map[string]any{}},
			"tests[0].steps[1].assertion.toolName"},
	}
	for _, tc := range cases {
		steps := []any{
			map[string]any{"id": "ask", "kind": "prompt", "prompt": "hi"},
			map[string]any{"id": "check", "kind": "assert", "assertion": tc.assertion},
		}
		bodies := map[string]map[string]any{
			"/eval-suites": {"name": "s", "serverIds": []string{f.serverID}, "model": "anthropic/claude-haiku-4.5",
				"tests": []any{map[string]any{"title": "t", "steps": steps}}},
			"/eval-runs": {"suiteName": "s", "serverIds": []string{f.serverID},
				"tests": []any{map[string]any{"title": "t", "model": "anthropic/claude-haiku-4.5", "steps": steps}}},
		}
		for route, body := range bodies {
			r := tg.call(t, "POST", p+route, f.ws.APIKey, body)
			b := r.wantError(t, shared.CodeValidation)
			if got, _ := b.Details["field"].(string); got != tc.want {
				t.Errorf("%s, POST %s: details.field = %q, want %q (body %s)", tc.name, route, got, tc.want, r.body)
			}
		}
	}
	f.srv.Wait()
}
