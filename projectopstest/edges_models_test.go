package projectopstest_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// iterations reads every iteration of a run through the SDK.
func (f *evalFix) iterations(t *testing.T, runID string) []evals.Iteration {
	t.Helper()
	var out []evals.Iteration
	for it, err := range f.c.Evals.Runs.AllIterations(t.Context(), f.ws.ProjectID, runID, nil) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, it)
	}
	return out
}

// TestEvalModelGateSDK: the run-create gate admits what the service
// admits — a hosted id (bare ids resolve to their provider's hosted entry),
// a provider-native id the service knows (no modelApiKeys needed: keys the
// organization stored may cover it), an open provider's id, any id with a
// key for its provider — and refuses only a model nothing could execute,
// with the provider's hosted ids. A known id without any usable key fails
// in the run.
func TestEvalModelGateSDK(t *testing.T) {
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
	test := func(title, model, provider string) evals.Test {
		tt := echoTest(title, "x")
		tt.Model, tt.Provider = model, provider
		return tt
	}

	// Known provider-native id, no key anywhere: accepted, fails in the run.
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{test("native", "claude-haiku-4-5", "anthropic")}})
	if run := f.awaitRun(t, rc.RunID); run.Status != evals.StatusCompleted || run.Result != evals.ResultFailed {
		t.Errorf("keyless native run: %s %s, want completed and failed", run.Status, run.Result)
	}
	its := f.iterations(t, rc.RunID)
	if len(its) != 1 || its[0].Result != evals.ResultFailed || !strings.Contains(its[0].Error, "key") {
		t.Errorf("keyless native iteration: %+v", its)
	}
	// The organization's stored key covers it.
	if err := f.srv.SetOrganizationModelKey(f.ws.OrganizationID, "anthropic", "sk-ant-org"); err != nil {
		t.Fatal(err)
	}
	rc = f.create(t, evals.RunParams{Tests: []evals.Test{test("native", "claude-haiku-4-5", "anthropic"),
		test("bare hosted", "gpt-4o-mini", "openai"), test("open", "llama3", "ollama")}})
	if run := f.awaitRun(t, rc.RunID); run.Status != evals.StatusCompleted {
		t.Errorf("covered run: %s, iterations %+v", run.Status, f.iterations(t, rc.RunID))
	}
	mu.Lock()
	if got := string(seen["claude-haiku-4-5"]); got != "sk-ant-org" {
		t.Errorf("native model got key %q, want the organization's", got)
	}
	if got, ok := seen["gpt-4o-mini"]; !ok || got != "" {
		t.Errorf("bare hosted id got key %q (called %t), want none: it runs on credits", string(got), ok)
	}
	mu.Unlock()
	// A run's own modelApiKeys win over the organization's.
	rc = f.create(t, evals.RunParams{Tests: []evals.Test{test("native", "claude-haiku-4-5", "anthropic")},
		ModelAPIKeys: evals.ModelAPIKeys{"anthropic": "sk-ant-run"}})
	f.awaitRun(t, rc.RunID)
	mu.Lock()
	if got := string(seen["claude-haiku-4-5"]); got != "sk-ant-run" {
		t.Errorf("native model got key %q, want the run's", got)
	}
	mu.Unlock()

	// Nothing could execute it: 400 with the provider's hosted ids.
	_, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, evals.RunParams{SuiteName: "bad",
		ServerIDs: []string{f.serverID}, Tests: []evals.Test{test("t", "claude-nonesuch", "anthropic")}})
	var e *projectops.Error
	if !errors.As(err, &e) || e.Code != projectops.CodeValidation || !slices.Equal(e.HostedModels, hostedWithPrefix("anthropic/")) {
		t.Errorf("unknown model: %v (hostedModels %v)", err, e.HostedModels)
	}
}

// TestEvalModelGateRaw is TestEvalModelGateSDK's create-time gate over raw
// HTTP, for run creation and suite authoring.
func TestEvalModelGateRaw(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	tg := inproc(f.srv)
	runs := "/projects/" + f.ws.ProjectID + "/eval-runs"
	body := func(model, provider, keys string) string {
		return `{"suiteName":"s ` + model + `","serverIds":["` + f.serverID + `"],` + keys +
			`"tests":[{"title":"t","model":"` + model + `","provider":"` + provider + `","runs":1,` +
			`"steps":[{"id":"p","kind":"prompt","prompt":"Use the echo tool with message=x"}]}]}`
	}
	for _, ok := range [][2]string{{"claude-haiku-4-5", "anthropic"}, {"gpt-4o-mini", "openai"},
		{"openai/gpt-5-nano", "openai"}, {"mistral-large-latest", "mistral"}, {"my-model", "custom"}} {
		if r := tg.call(t, "POST", runs, f.ws.APIKey, body(ok[0], ok[1], "")); r.status != 202 {
			t.Errorf("%s/%s without keys: %d %s", ok[1], ok[0], r.status, r.body)
		}
		<-f.finished
	}
	if r := tg.call(t, "POST", runs, f.ws.APIKey, body("gpt-7-secret", "openai", `"modelApiKeys":{"openai":"sk-x"},`)); r.status != 202 {
		t.Errorf("unknown id with a key: %d %s", r.status, r.body)
	}
	<-f.finished
	r := tg.call(t, "POST", runs, f.ws.APIKey, body("gpt-7-secret", "openai", ""))
	b := r.wantError(t, "VALIDATION_ERROR")
	hosted, _ := b.Details["hostedModels"].([]any)
	if len(hosted) != len(hostedWithPrefix("openai/")) || b.Details["model"] != "gpt-7-secret" || b.Details["provider"] != "openai" {
		t.Errorf("unknown openai id: details %v", b.Details)
	}
	// A provider with no hosted ids: the refusal carries none.
	b = tg.call(t, "POST", runs, f.ws.APIKey, body("mistralai/nope", "", "")).wantError(t, "VALIDATION_ERROR")
	if _, has := b.Details["hostedModels"]; has {
		t.Errorf("mistralai: hostedModels %v, want none", b.Details["hostedModels"])
	}
	// Suite authoring applies the same gate without keys.
	suites := "/projects/" + f.ws.ProjectID + "/eval-suites"
	suite := func(model string) string {
		return `{"name":"n ` + model + `","serverIds":["` + f.serverID + `"],"model":"` + model + `","provider":"anthropic",` +
			`"tests":[{"title":"t","steps":[{"id":"p","kind":"prompt","prompt":"hi"}]}]}`
	}
	if r := tg.call(t, "POST", suites, f.ws.APIKey, suite("claude-sonnet-4-5")); r.status != 201 {
		t.Errorf("suite with a known native model: %d %s", r.status, r.body)
	}
	tg.call(t, "POST", suites, f.ws.APIKey, suite("claude-nonesuch")).wantField(t, "model")
}
