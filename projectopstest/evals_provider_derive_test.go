package projectopstest_test

import (
	"errors"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
)

// TestEvalBareModelIdTakesCatalogProvider: a provider-native id with no
// provider (spec §4.4: bring-your-own-key, the key in modelApiKeys) takes
// its provider from the model catalog, as the service attributes a bare id;
// the model id never becomes its own provider, and the key given for the
// real provider is the one in play.
func TestEvalBareModelIdTakesCatalogProvider(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	tt := echoTest("byok", "hi")
	tt.Model, tt.Runs = "gpt-4o-mini", 1
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{tt}, ModelAPIKeys: evals.ModelAPIKeys{"openai": "sk-proj-test"}})
	if run := f.awaitRun(t, rc.RunID); run.Status != evals.StatusCompleted {
		t.Errorf("run %s, want completed: %+v", run.Status, f.iterations(t, rc.RunID))
	}
	for _, it := range f.iterations(t, rc.RunID) {
		if it.Provider != "openai" || strings.Contains(it.Error, "no usable") {
			t.Errorf("iteration provider %q error %q, want openai and no key failure", it.Provider, it.Error)
		}
	}
	// A native id the catalog knows only bare ("claude-haiku-4-5") uses
	// the key given for its provider.
	tt.Model = "claude-haiku-4-5"
	rc = f.create(t, evals.RunParams{Tests: []evals.Test{tt}, ModelAPIKeys: evals.ModelAPIKeys{"anthropic": "sk-ant"}})
	if run := f.awaitRun(t, rc.RunID); run.Status != evals.StatusCompleted {
		t.Errorf("claude-haiku-4-5 run %s: %+v", run.Status, f.iterations(t, rc.RunID))
	}
}

// TestEvalUnattributableBareModelIsValidationError: a bare id nothing
// attributes to a provider cannot execute, so the create is refused
// (spec §4.4) with the field named, and the message does not tell the
// caller to key the model id as if it were a provider.
func TestEvalUnattributableBareModelIsValidationError(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	tt := echoTest("finetune", "hi")
	tt.Model = "my-finetune"
	_, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, evals.RunParams{SuiteName: "s", ServerIDs: []string{f.serverID},
		Tests: []evals.Test{tt}, ModelAPIKeys: evals.ModelAPIKeys{"openai": "sk-proj-test"}})
	var e *projectops.Error
	if !errors.As(err, &e) || e.Code != projectops.CodeValidation {
		t.Fatalf("create: %v, want VALIDATION_ERROR", err)
	}
	if e.Details["field"] != "tests[0].model" || strings.Contains(e.Message, `modelApiKeys["my-finetune"]`) ||
		!strings.Contains(e.Message, "provider") {
		t.Errorf("refusal: %q details %v", e.Message, e.Details)
	}
	// Suite authoring refuses it too, naming the suite's model field.
	_, err = f.c.Evals.Suites.Create(t.Context(), f.ws.ProjectID, evals.CreateSuiteParams{Name: "n", ServerIDs: []string{f.serverID},
		Model: "my-finetune", Tests: []evals.Test{echoTest("t", "hi")}})
	if !errors.As(err, &e) || e.Code != projectops.CodeValidation || e.Details["field"] != "model" {
		t.Errorf("suite create: %v", err)
	}
}
