package projectopstest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/projectops/projectops-go/option"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
)

func TestEvalRunValidation(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	bare, err := f.srv.AddEvalSuite(projectopstest.EvalSuiteSpec{ProjectID: f.ws.ProjectID, Name: "bare"})
	if err != nil {
		t.Fatal(err)
	}
	ok := echoTest("t", "x")
	ok.Model = "anthropic/claude-haiku-4.5"
	withModel := func(m, p string) []evals.Test {
		t := echoTest("t", "x")
		t.Model, t.Provider = m, p
		return []evals.Test{t}
	}
	cases := []struct {
		name   string
		p      evals.RunParams
		field  string
		reason projectops.Reason
		hosted []string
	}{
		{name: "nothing", p: evals.RunParams{}, field: "suiteName"},
		{name: "no tests", p: evals.RunParams{SuiteName: "s", ServerIDs: []string{f.serverID}}, field: "tests"},
		{name: "no servers", p: evals.RunParams{SuiteName: "s", Tests: []evals.Test{ok}}, field: "serverIds"},
		{name: "no title", p: evals.RunParams{SuiteName: "s", ServerIDs: []string{f.serverID},
			Tests: []evals.Test{{Steps: ok.Steps, Model: ok.Model}}}, field: "tests[0].title"},
		{name: "bad kind", p: evals.RunParams{SuiteName: "s", ServerIDs: []string{f.serverID},
			Tests: []evals.Test{{Title: "t", Model: ok.Model, Steps: []evals.Step{{ID: "a", Kind: "dance"}}}}}, field: "tests[0].steps[0].kind"},
		{name: "dup step", p: evals.RunParams{SuiteName: "s", ServerIDs: []string{f.serverID},
			Tests: []evals.Test{{Title: "t", Model: ok.Model, Steps: []evals.Step{evals.PromptStep("a", "x"), evals.PromptStep("a", "y")}}}},
			field: "tests[0].steps[1].id"},
		{name: "runs", p: evals.RunParams{SuiteName: "s", ServerIDs: []string{f.serverID},
			Tests: []evals.Test{{Title: "t", Model: ok.Model, Runs: 11, Steps: ok.Steps}}}, field: "tests[0].runs"},
		{name: "override", p: evals.RunParams{SuiteName: "s", ServerIDs: []string{f.serverID}, Tests: []evals.Test{ok},
			IterationOverride: 11}, field: "iterationOverride"},
		{name: "not hosted", p: evals.RunParams{SuiteName: "s", ServerIDs: []string{f.serverID},
			Tests: withModel("anthropic/claude-9", "")}, field: "tests[0].model",
			hosted: hostedWithPrefix("anthropic/")},
		{name: "byok without key", p: evals.RunParams{SuiteName: "s", ServerIDs: []string{f.serverID},
			Tests: withModel("gpt-5-native", "openai"), ModelAPIKeys: evals.ModelAPIKeys{"anthropic": "sk-ant-secret"}},
			field: "tests[0].model", hosted: hostedWithPrefix("openai/")},
		// The service's details name the suite and the reason, no field.
		{name: "no saved servers", p: evals.RunParams{SuiteID: bare, Tests: []evals.Test{ok}},
			reason: projectops.ReasonNoSavedServerSelection},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, tc.p)
			e := sdktest.WantField(t, err, tc.field, true)
			if e.Reason != tc.reason {
				t.Errorf("reason = %q, want %q", e.Reason, tc.reason)
			}
			if tc.reason == projectops.ReasonNoSavedServerSelection && (!errors.Is(err, projectops.ErrNoSavedServerSelection) || e.Details["suiteId"] != bare) {
				t.Errorf("errors.Is(ErrNoSavedServerSelection) = %v, details %v; want the suite named", errors.Is(err, projectops.ErrNoSavedServerSelection), e.Details)
			}
			if !slices.Equal(e.HostedModels, tc.hosted) {
				t.Errorf("hostedModels = %v, want %v", e.HostedModels, tc.hosted)
			}
			if strings.Contains(e.Error(), "sk-ant-secret") {
				t.Errorf("error reveals a model key: %v", e)
			}
		})
	}
	// A provider-native model runs with its provider's key.
	f.create(t, evals.RunParams{Tests: withModel("gpt-5-native", "openai"), ModelAPIKeys: evals.ModelAPIKeys{"openai": "sk-x"}})
	// Nothing rejected left a suite or run behind.
	suites, _ := items(f.c.Evals.Suites.List(t.Context(), f.ws.ProjectID, nil))
	if len(suites) != 2 {
		t.Errorf("%d suites, want the bare one and the accepted run's", len(suites))
	}
	// Strict bodies and suite authoring rules.
	tg := inproc(f.srv)
	base := "/projects/" + f.ws.ProjectID
	tg.call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, `{"suiteId":"`+bare+`","bogus":1}`).wantField(t, "bogus")
	tg.call(t, http.MethodPost, base+"/eval-suites", f.ws.APIKey, evals.CreateSuiteParams{Name: "x",
		ServerIDs: []string{f.serverID}, Model: "mistral/large", Tests: []evals.Test{ok}}).wantField(t, "model")
	tg.call(t, http.MethodPost, base+"/eval-suites", f.ws.APIKey, evals.CreateSuiteParams{Name: "x",
		Model: ok.Model, Tests: []evals.Test{ok}}).wantField(t, "serverIds")
	tg.call(t, http.MethodPost, base+"/eval-suites", f.ws.APIKey, evals.CreateSuiteParams{Name: "x",
		ServerIDs: []string{f.serverID}, Model: ok.Model}).wantField(t, "tests")
	if r := tg.call(t, http.MethodGet, base+"/eval-suites/"+bare+"/runs?limit=101", f.ws.APIKey, nil); r.status != http.StatusOK {
		t.Errorf("limit=101: %d %s; the service clamps it to 100", r.status, r.body) // as the service reads it
	}
	tg.call(t, http.MethodGet, base+"/eval-suites/evs_nope/runs", f.ws.APIKey, nil).wantError(t, "NOT_FOUND")
	// JSON Schema's integer, and the service's JavaScript, take 2.0 and
	// 1e0 as the whole numbers they are; 2.5 is still no integer.
	suiteBody := func(runs string) string {
		return `{"name":"int ` + runs + `","serverIds":["` + f.serverID + `"],"model":"` + ok.Model +
			`","tests":[{"title":"t","steps":[{"id":"s1","kind":"prompt","prompt":"hi"}],"runs":` + runs + `}]}`
	}
	var suite struct {
		ID string `json:"suiteId"`
	}
	for _, n := range []string{"2.0", "1e0"} {
		r := tg.call(t, http.MethodPost, base+"/eval-suites", f.ws.APIKey, suiteBody(n))
		if r.status != http.StatusCreated {
			t.Fatalf("runs %s: %d %s", n, r.status, r.body)
		}
		r.decode(t, &suite)
	}
	tg.call(t, http.MethodPost, base+"/eval-suites", f.ws.APIKey, suiteBody("2.5")).wantField(t, "tests[0].runs")
	if r := tg.call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, `{"suiteId":"`+suite.ID+`","iterationOverride":2.0}`); r.status != http.StatusAccepted {
		t.Errorf("iterationOverride 2.0: %d %s", r.status, r.body)
	}
	f.srv.Wait()
}

func TestEvalModelKeysNeverEchoed(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	f := newEvalFix(t, projectopstest.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	rec := &sdktest.Recorder{RT: f.srv.Transport()}
	c, err := f.srv.NewClient(option.WithTransport(rec), option.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	if err != nil {
		t.Fatal(err)
	}
	test := echoTest("t", "x")
	test.Model, test.Provider = "claude-native", "anthropic"
	p := evals.RunParams{SuiteName: "s", ServerIDs: []string{f.serverID}, Tests: []evals.Test{test},
		ModelAPIKeys: evals.ModelAPIKeys{"anthropic": "sk-ant-topsecret"}}
	rc, err := c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, p)
	if err != nil {
		t.Fatal(err)
	}
	f.awaitRun(t, rc.RunID)
	if _, err := c.Evals.Runs.Get(t.Context(), f.ws.ProjectID, rc.RunID); err != nil {
		t.Fatal(err)
	}
	if _, err := sdktest.Collect(c.Evals.Runs.AllIterations(t.Context(), f.ws.ProjectID, rc.RunID, nil)); err != nil {
		t.Fatal(err)
	}
	for _, ex := range rec.Exchanges() {
		if bytes.Contains(ex.Body, []byte("topsecret")) {
			t.Errorf("%s %s answered with the model key: %s", ex.Method, ex.Path, ex.Body)
		}
	}
	for _, s := range []string{logs.String(), fmt.Sprintf("%v %+v %#v %s", p, p, p, p.ModelAPIKeys)} {
		if strings.Contains(s, "topsecret") {
			t.Errorf("key printed: %s", s)
		}
	}
	if got := p.ModelAPIKeys.String(); got != "ModelAPIKeys{anthropic:[REDACTED]}" {
		t.Errorf("String = %q", got)
	}
}

func TestEvalRunAccess(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("t", "x")}})
	f.awaitRun(t, rc.RunID)
	other, err := f.srv.AddProject(projectopstest.ProjectSpec{OrganizationID: f.ws.OrganizationID, Name: "other"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.c.Evals.Runs.Get(t.Context(), other, rc.RunID)
	sdktest.WantError(t, err, projectops.CodeNotFound, true)
	_, err = f.c.Evals.Runs.Cancel(t.Context(), other, rc.RunID)
	sdktest.WantError(t, err, projectops.CodeNotFound, true)
	_, err = f.c.Evals.Runs.Trace(t.Context(), f.ws.ProjectID, rc.RunID, "itr_nope")
	sdktest.WantError(t, err, projectops.CodeNotFound, true)

	key := addProjectGuest(t, f)
	gc, err := f.srv.NewClient(option.WithAPIKey(key))
	if err != nil {
		t.Fatal(err)
	}
	_, err = gc.Evals.Runs.Create(t.Context(), f.ws.ProjectID, evals.RunParams{SuiteID: "evs_x"})
	sdktest.WantError(t, err, projectops.CodeForbidden, true)
	_, err = gc.Evals.Runs.Cancel(t.Context(), f.ws.ProjectID, rc.RunID)
	sdktest.WantError(t, err, projectops.CodeForbidden, true)
	if _, err := gc.Evals.Runs.Get(t.Context(), f.ws.ProjectID, rc.RunID); err != nil {
		t.Errorf("guest read: %v", err)
	}
	// Cancel is bodyless.
	inproc(f.srv).call(t, http.MethodPost, "/projects/"+f.ws.ProjectID+"/eval-runs/"+rc.RunID+"/cancel",
		f.ws.APIKey, `{"force":true}`).wantField(t, "force")
}

// addProjectGuest adds an organization member who is a guest of the
// default project and returns their key.
func addProjectGuest(t *testing.T, f *evalFix) string {
	t.Helper()
	uid, err := f.srv.AddUser(projectopstest.UserSpec{OrganizationID: f.ws.OrganizationID, Role: projectopstest.RoleMember})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.srv.AddMember(f.ws.ProjectID, uid, projectopstest.RoleGuest); err != nil {
		t.Fatal(err)
	}
	key, _, err := f.srv.AddAPIKey(uid, "guest")
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// A provider-native model gets its provider's key from modelApiKeys; a
// hosted model gets none.
func TestEvalModelReceivesProviderKey(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	seen := map[string]projectopstest.Secret{}
	model := projectopstest.ModelFunc(func(ctx context.Context, req projectopstest.ModelRequest) (*projectopstest.ModelResponse, error) {
		mu.Lock()
		seen[req.Model] = req.APIKey
		mu.Unlock()
		return projectopstest.DefaultModel().Generate(ctx, req)
	})
	f := newEvalFix(t, projectopstest.WithEvalModel(model))
	native := echoTest("native", "a")
	native.Model, native.Provider = "gpt-5-native", "openai"
	hosted := echoTest("hosted", "b")
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{native, hosted},
		ModelAPIKeys: evals.ModelAPIKeys{"openai": "sk-openai-key", "anthropic": "sk-ant-key"}})
	f.awaitRun(t, rc.RunID)
	mu.Lock()
	defer mu.Unlock()
	if got := string(seen["gpt-5-native"]); got != "sk-openai-key" {
		t.Errorf("native model got key %q, want the openai key", got)
	}
	if got, ok := seen["anthropic/claude-haiku-4.5"]; !ok || got != "" {
		t.Errorf("hosted model got key %q (called %t), want none", string(got), ok)
	}
}

// hostedWithPrefix lists the default hosted ids of one provider prefix.
func hostedWithPrefix(prefix string) []string {
	var out []string
	for _, id := range projectopstest.DefaultHostedModels {
		if strings.HasPrefix(id, prefix) {
			out = append(out, id)
		}
	}
	return out
}

// A case is its title and steps (the service's buildUpsertCaseKey): two
// tests of one request with one title and other steps are two cases; a
// test repeating an earlier one of the request is reported failed, the
// first kept (both were reported committed, under one id, and the first
// was silently replaced).
func TestSuiteCaseIdentityInOneRequest(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	sc, err := f.c.Evals.Suites.Create(t.Context(), f.ws.ProjectID, evals.CreateSuiteParams{
		Name: "dups", ServerIDs: []string{f.serverID}, Model: "anthropic/claude-haiku-4.5",
		Tests: []evals.Test{echoTest("same", "x"), echoTest("same", "y"), echoTest("same", "x"), echoTest("other", "z")}})
	if err != nil {
		t.Fatal(err)
	}
	up := sc.CaseUpsert
	if len(up.Committed) != 3 || len(up.Failed) != 1 || up.Failed[0].Name != "same" || up.Failed[0].Error == "" ||
		up.Committed[0].ID == up.Committed[1].ID || up.Failed[0].ID != up.Committed[0].ID {
		t.Fatalf("caseUpsert = %+v, want same/x, same/y and other committed, the repeated same/x failed", up)
	}
	run := f.awaitRun(t, f.create(t, evals.RunParams{SuiteID: sc.SuiteID}).RunID)
	if run.Summary.Total != len(up.Committed) {
		t.Errorf("run executed %d iterations, caseUpsert committed %d", run.Summary.Total, len(up.Committed))
	}
}

// A stored case is updated only by a test of its identity: a test of its
// title with other steps is a new case beside it.
func TestSuiteCaseUpdatedOnlyByItsIdentity(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	first := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("same", "x")}})
	f.awaitRun(t, first.RunID)
	again := f.create(t, evals.RunParams{SuiteID: first.SuiteID, Tests: []evals.Test{echoTest("same", "x"), echoTest("same", "y")}})
	f.awaitRun(t, again.RunID)
	up := again.CaseUpsert
	if len(up.Committed) != 2 || up.Committed[0].ID != first.CaseUpsert.Committed[0].ID || up.Committed[1].ID == up.Committed[0].ID {
		t.Fatalf("caseUpsert = %+v, want the stored case %s updated and a new one beside it", up, first.CaseUpsert.Committed[0].ID)
	}
	if n := len(f.iterations(t, again.RunID)); n != 2 {
		t.Errorf("the rerun executed %d iterations, want both cases", n)
	}
}

// A run created with a repeated test runs it once, as caseUpsert keeps it
// once and a rerun of the suite by id runs it (it ran twice).
func TestRunCreateRepeatedTestRunsOnce(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("same", "x"), echoTest("same", "y"), echoTest("same", "x")}})
	f.awaitRun(t, rc.RunID)
	first := f.iterations(t, rc.RunID)
	rerun := f.create(t, evals.RunParams{SuiteID: rc.SuiteID})
	f.awaitRun(t, rerun.RunID)
	second := f.iterations(t, rerun.RunID)
	a, b := fmt.Sprint(expectedCallsOf(first)), fmt.Sprint(expectedCallsOf(second))
	if len(first) != 2 || a != b || !strings.Contains(a, "x") || !strings.Contains(a, "y") {
		t.Errorf("run-create executed %s; the stored cases, run by suite id, execute %s", a, b)
	}
}

// suiteRerun with inline tests runs the stored suite without upserting
// them (the service's authorEvalSuite skips the upsert): caseUpsert is
// empty, the run executes the stored case, and the suite keeps its cases
// (the double upserted the new test and ran it).
func TestRunCreateSuiteRerunDoesNotUpsert(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("one", "a")}})
	f.awaitRun(t, rc.RunID)
	again := f.create(t, evals.RunParams{SuiteID: rc.SuiteID, SuiteRerun: true, Tests: []evals.Test{echoTest("two", "b")}})
	f.awaitRun(t, again.RunID)
	if n := len(again.CaseUpsert.Committed) + len(again.CaseUpsert.Failed); n != 0 {
		t.Errorf("suiteRerun: caseUpsert %+v, want empty (no upsert)", again.CaseUpsert)
	}
	if got := fmt.Sprint(expectedCallsOf(f.iterations(t, again.RunID))); !strings.Contains(got, "message:a]") || strings.Contains(got, "message:b]") {
		t.Errorf("suiteRerun executed %s, want the stored case (message a) alone", got)
	}
	rerun := f.awaitRun(t, f.create(t, evals.RunParams{SuiteID: rc.SuiteID}).RunID)
	if rerun.Summary.Total != 1 {
		t.Errorf("after a suiteRerun with a new test, a bare rerun ran %d iterations, want 1 (the suite unchanged)", rerun.Summary.Total)
	}
	// Its tests' models are checked all the same (assertInlineTestModelsValid).
	bad := echoTest("three", "c")
	bad.Model, bad.Provider = "claude-nonesuch", "anthropic"
	_, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, evals.RunParams{SuiteID: rc.SuiteID, SuiteRerun: true,
		Tests: []evals.Test{bad}})
	if e := (*projectops.Error)(nil); !errors.As(err, &e) || e.Code != projectops.CodeValidation {
		t.Errorf("suiteRerun with a test of an unknown model: err = %v, want 400 VALIDATION_ERROR", err)
	}
}

// expectedCallsOf lists the expected tool calls of iterations, in order.
func expectedCallsOf(iters []evals.Iteration) []any {
	var out []any
	for _, it := range iters {
		out = append(out, it.ExpectedToolCalls)
	}
	return out
}

// A passCriteria object without minimumPassRate sets no threshold: the run
// is judged by the default, 100%, so a run whose every iteration failed is
// not "passed" (it was: {} decoded as a 0% threshold).
func TestEvalEmptyPassCriteriaMeansDefault(t *testing.T) {
	f := newEvalFix(t)
	tg := inproc(f.srv)
	base := "/projects/" + f.ws.ProjectID
	// The prompt calls echo with message=hi; the assertion wants "bye": fails.
	body := `{"suiteName":"s","serverIds":["` + f.serverID + `"],"passCriteria":{},"tests":[{"title":"t",` +
		`"model":"anthropic/claude-haiku-4.5","steps":[{"id":"p","kind":"prompt","prompt":"Use the echo tool with message=hi"},` +
		`{"id":"a","kind":"assert","assertion":{"type":"toolCalledWith","toolName":"echo","args":{"args":{"message":"bye"}}}}]}]}`
	r := tg.call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, body)
	var rc evals.RunCreated
	r.decode(t, &rc)
	run := f.awaitRun(t, rc.RunID)
	if run.Summary == nil || run.Summary.Passed != 0 || run.Summary.Failed != 1 {
		t.Fatalf("setup: want 0 passed / 1 failed, got %+v", run.Summary)
	}
	if run.Result != evals.ResultFailed {
		t.Errorf("run with a 0%% pass rate and passCriteria {} has result %q, want %q", run.Result, evals.ResultFailed)
	}
}

// A run or suite naming a server the project does not have is the spec's
// NOT_FOUND (404), as the service answers it, naming the field.
func TestEvalUnknownServerIs404(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	ok := echoTest("echo", "x")
	ok.Model = "anthropic/claude-haiku-4.5" // a model-less test is refused first, as the service's schema does
	_, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, evals.RunParams{SuiteName: "s", Tests: []evals.Test{ok},
		ServerIDs: []string{f.serverID, "srv_nope"}})
	if e := sdktest.WantError(t, err, projectops.CodeNotFound, true); e.Details["field"] != "serverIds" || e.Details["serverId"] != "srv_nope" {
		t.Errorf("details = %v", e.Details)
	}
	suites, err := f.c.Evals.Suites.List(t.Context(), f.ws.ProjectID, nil)
	if err != nil || len(suites.Items) != 0 {
		t.Errorf("a refused run left suites %+v (%v)", suites, err)
	}
}

// A minimum pass rate is any number, as the service's schemas take it
// (above 100 no run passes); only what is not a number is refused.
func TestPassCriteriaAnyNumber(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	rc := f.create(t, evals.RunParams{PassCriteria: &evals.PassCriteria{MinimumPassRate: 150},
		Tests: []evals.Test{echoTest("echo", "x")}})
	if run := f.awaitRun(t, rc.RunID); run.Result != evals.ResultFailed || run.Summary == nil || run.Summary.Passed != 1 {
		t.Errorf("a run whose one test passed, against 150%%: %+v", run)
	}
	inproc(f.srv).call(t, http.MethodPost, "/projects/"+f.ws.ProjectID+"/eval-suites", f.ws.APIKey,
		`{"name":"x","serverIds":["`+f.serverID+`"],"model":"openai/gpt-4o-mini","passCriteria":{"minimumPassRate":"high"},`+
			`"tests":[{"title":"t","steps":[{"id":"s1","kind":"prompt","prompt":"hi"}]}]}`).wantField(t, "passCriteria.minimumPassRate")
}
