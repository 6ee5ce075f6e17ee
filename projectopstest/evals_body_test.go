package projectopstest_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// advancedConfig is an open object whose system must be a string and
// temperature a number, in suite create's and run create's tests alike
// (the service's advancedConfig schema, passthrough for other keys).
func TestEvalAdvancedConfigTypes(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	tg := inproc(f.srv)
	base := "/projects/" + f.ws.ProjectID
	for adv, field := range map[string]string{`{"temperature":"hot"}`: "tests[0].advancedConfig.temperature",
		`{"system":5}`: "tests[0].advancedConfig.system"} {
		suite := `{"name":"s","serverIds":["` + f.serverID + `"],"model":"openai/gpt-4o-mini","tests":[{"title":"t",` +
			`"advancedConfig":` + adv + `,"steps":[{"id":"p","kind":"prompt","prompt":"hi"}]}]}`
		b := tg.call(t, http.MethodPost, base+"/eval-suites", f.ws.APIKey, suite).wantError(t, shared.CodeValidation)
		if b.Details["field"] != field {
			t.Errorf("suite create with advancedConfig %s: field %v, want %s", adv, b.Details["field"], field)
		}
		run := `{"suiteName":"s","serverIds":["` + f.serverID + `"],"tests":[{"title":"t","runs":1,"model":"openai/gpt-4o-mini",` +
			`"provider":"openai","advancedConfig":` + adv + `,"steps":[{"id":"p","kind":"prompt","prompt":"hi"}]}]}`
		b = tg.call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, run).wantError(t, shared.CodeValidation)
		if b.Details["field"] != field {
			t.Errorf("run create with advancedConfig %s: field %v, want %s", adv, b.Details["field"], field)
		}
	}
	ok := `{"name":"s","serverIds":["` + f.serverID + `"],"model":"openai/gpt-4o-mini","tests":[{"title":"t",` +
		`"advancedConfig":{"system":"be brief","temperature":0.2,"foo":1},"steps":[{"id":"p","kind":"prompt","prompt":"hi"}]}]}`
	if r := tg.call(t, http.MethodPost, base+"/eval-suites", f.ws.APIKey, ok); r.status != http.StatusCreated {
		t.Errorf("well-typed advancedConfig with an extra key: status %d %s, want 201", r.status, r.body)
	}
}

// A test's matchOptions follow the service's strict matchOptionsSchema
// (toolCallOrder ignore|strict|superset, maxExtraToolCalls a count or
// null, allowExtraToolCalls a boolean, argumentMatching exact|partial|
// ignore); a run's matchOptionsOverride that or the public vocabulary
// (toolCallOrder any|in-order|exact, extraToolCalls "unlimited" or a
// count, arguments), one or the other, never mixed.
func TestEvalMatchOptionsValidated(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(50))
	tg := inproc(f.srv)
	base := "/projects/" + f.ws.ProjectID
	suite := func(mo string) result {
		return tg.call(t, http.MethodPost, base+"/eval-suites", f.ws.APIKey, `{"name":"s","serverIds":["`+f.serverID+
			`"],"model":"openai/gpt-4o-mini","tests":[{"title":"t","matchOptions":`+mo+
			`,"steps":[{"id":"p","kind":"prompt","prompt":"hi"}]}]}`)
	}
	run := func(mo string) result {
		return tg.call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, `{"suiteName":"s","serverIds":["`+f.serverID+
			`"],"matchOptionsOverride":`+mo+`,"tests":`+promptTests(1, 1)+`}`)
	}
	for _, mo := range []string{`{"toolCallOrder":"strict","maxExtraToolCalls":null,"allowExtraToolCalls":true,"argumentMatching":"partial"}`,
		`{"maxExtraToolCalls":2}`, `{}`} {
		if r := suite(mo); r.status != http.StatusCreated {
			t.Errorf("suite create with matchOptions %s: status %d %.200s, want 201", mo, r.status, r.body)
		}
		if r := run(mo); r.status != http.StatusAccepted {
			t.Errorf("run create with matchOptionsOverride %s: status %d %.200s, want 202", mo, r.status, r.body)
		}
	}
	for _, mo := range []string{`{"toolCallOrder":"in-order","extraToolCalls":"unlimited","arguments":"exact"}`, `{"extraToolCalls":0}`} {
		if r := run(mo); r.status != http.StatusAccepted {
			t.Errorf("run create with the public matchOptionsOverride %s: status %d %.200s, want 202", mo, r.status, r.body)
		}
		if r := suite(mo); r.status != http.StatusBadRequest {
			t.Errorf("suite create with the public vocabulary %s as matchOptions: status %d, want 400", mo, r.status)
		}
	}
	for mo, field := range map[string]string{
		`{"toolCallOrder":"zzz"}`:                        "toolCallOrder",
		`{"maxExtraToolCalls":-1}`:                       "maxExtraToolCalls",
		`{"maxExtraToolCalls":0.5}`:                      "maxExtraToolCalls",
		`{"allowExtraToolCalls":"yes"}`:                  "allowExtraToolCalls",
		`{"argumentMatching":"fuzzy"}`:                   "argumentMatching",
		`{"toolCallOrder":"strict","arguments":"exact"}`: "arguments", // two vocabularies mixed
		`{"other":1}`:                                    "other",
	} {
		b := suite(mo).wantError(t, shared.CodeValidation)
		if b.Details["field"] != "tests[0].matchOptions."+field {
			t.Errorf("suite create with matchOptions %s: field %v, want tests[0].matchOptions.%s", mo, b.Details["field"], field)
		}
		b = run(mo).wantError(t, shared.CodeValidation)
		if !strings.HasPrefix(b.Details["field"].(string), "matchOptionsOverride.") {
			t.Errorf("run create with matchOptionsOverride %s: field %v, want one under matchOptionsOverride", mo, b.Details["field"])
		}
	}
	run(`"strict"`).wantError(t, shared.CodeValidation)
}

// projectId in the run-create body is accepted and ignored: the service
// merges the path's projectId over it. Suite create's strict schema has no
// such key and still refuses it.
func TestEvalRunBodyProjectIDPathWins(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	tg := inproc(f.srv)
	base := "/projects/" + f.ws.ProjectID
	for _, pid := range []string{`"prj_other"`, `7`, `null`} {
		body := `{"projectId":` + pid + `,"suiteName":"s","serverIds":["` + f.serverID + `"],"tests":` + promptTests(1, 1) + `}`
		r := tg.call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, body)
		if r.status != http.StatusAccepted {
			t.Fatalf("run create with projectId %s: status %d %s, want 202 (the path's project wins)", pid, r.status, r.body)
		}
		var rc evals.RunCreated
		r.decode(t, &rc)
		if _, err := f.c.Evals.Runs.Get(t.Context(), f.ws.ProjectID, rc.RunID); err != nil {
			t.Errorf("the run is not in the path's project: %v", err)
		}
	}
	suite := `{"projectId":"prj_other","name":"s","serverIds":["` + f.serverID + `"],"model":"openai/gpt-4o-mini",` +
		`"tests":[{"title":"t","steps":[{"id":"p","kind":"prompt","prompt":"hi"}]}]}`
	if b := tg.call(t, http.MethodPost, base+"/eval-suites", f.ws.APIKey, suite).wantError(t, shared.CodeValidation); b.Details["field"] != "projectId" {
		t.Errorf("suite create with projectId: field %v, want projectId", b.Details["field"])
	}
}

// environmentId needs suiteId (the service's schema refinement): without
// one the body is 400 VALIDATION_ERROR and nothing is authored.
func TestEvalRunEnvironmentIDNeedsSuiteID(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	tg := inproc(f.srv)
	base := "/projects/" + f.ws.ProjectID
	body := `{"environmentId":"env_1","suiteName":"s","serverIds":["` + f.serverID + `"],"tests":` + promptTests(1, 1) + `}`
	b := tg.call(t, http.MethodPost, base+"/eval-runs", f.ws.APIKey, body).wantError(t, shared.CodeValidation)
	if b.Details["field"] != "environmentId" {
		t.Errorf("field %v, want environmentId", b.Details["field"])
	}
	if page, err := f.c.Evals.Suites.List(t.Context(), f.ws.ProjectID, nil); err != nil || len(page.Items) != 0 {
		t.Errorf("after the refusal the project has suites %+v (%v), want none", page, err)
	}
}

// An explicit environmentId with a suiteId names an environment the suite
// does not have attached (no suite has environments in the double): 400
// VALIDATION_ERROR with the service's message and details, and no run
// (the double ran the suite, ignoring the field).
func TestEvalRunEnvironmentIDNotAttached(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("one", "a")}})
	f.awaitRun(t, rc.RunID)
	body := `{"suiteId":"` + rc.SuiteID + `","environmentId":"env_1"}`
	r := inproc(f.srv).call(t, http.MethodPost, "/projects/"+f.ws.ProjectID+"/eval-runs", f.ws.APIKey, body)
	b := r.wantError(t, shared.CodeValidation)
	const msg = "Environment env_1 is not attached to this suite, which has no environments at all." +
		" Attach it first (PATCH the suite with environmentIds), then retry."
	if b.Message != msg {
		t.Errorf("message %q, want %q", b.Message, msg)
	}
	ids, isList := b.Details["environmentIds"].([]any)
	if b.Details["reason"] != "ENVIRONMENT_NOT_ATTACHED" || b.Details["environmentId"] != "env_1" || !isList || len(ids) != 0 {
		t.Errorf("details %v, want reason ENVIRONMENT_NOT_ATTACHED, environmentId env_1, environmentIds []", b.Details)
	}
	if page, err := f.c.Evals.Suites.ListRuns(t.Context(), f.ws.ProjectID, rc.SuiteID, nil); err != nil || len(page.Items) != 1 {
		t.Errorf("after the refusal the suite's runs are %+v (%v), want the first alone", page, err)
	}
}

// environmentId and serverIds are mutually exclusive (the service's
// schema refinement, checked before the suite's attachments): 400
// VALIDATION_ERROR naming environmentId, without an attachment reason.
func TestEvalRunEnvironmentIDExcludesServerIDs(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("one", "a")}})
	f.awaitRun(t, rc.RunID)
	_, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, evals.RunParams{SuiteID: rc.SuiteID, EnvironmentID: "env_1",
		ServerIDs: []string{f.serverID}})
	var e *shared.Error
	if !errors.As(err, &e) || e.Code != shared.CodeValidation || e.Details["field"] != "environmentId" || e.Reason != "" {
		t.Errorf("environmentId with serverIds: err = %v, want 400 VALIDATION_ERROR on field environmentId, no reason", err)
	}
}

// An empty environmentId is absent to the service's refinements
// (`!body.environmentId`): it needs no suiteId, and with one it names no
// environment, so both runs start.
func TestEvalRunEmptyEnvironmentIDIsAbsent(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	tg := inproc(f.srv)
	path := "/projects/" + f.ws.ProjectID + "/eval-runs"
	body := `{"environmentId":"","suiteName":"s","serverIds":["` + f.serverID + `"],"tests":` + promptTests(1, 1) + `}`
	r := tg.call(t, http.MethodPost, path, f.ws.APIKey, body)
	if r.status != http.StatusAccepted {
		t.Fatalf(`environmentId "" without suiteId: status %d %.200s, want 202`, r.status, r.body)
	}
	var rc evals.RunCreated
	r.decode(t, &rc)
	f.awaitRun(t, rc.RunID)
	if r := tg.call(t, http.MethodPost, path, f.ws.APIKey, `{"environmentId":"","suiteId":"`+rc.SuiteID+`"}`); r.status != http.StatusAccepted {
		t.Errorf(`environmentId "" with suiteId: status %d %.200s, want 202`, r.status, r.body)
	}
}

// promptTests builds n inline run tests, each with runs iterations of one
// prompt step (one model call per iteration).
func promptTests(n, runs int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`{"title":"case %d","runs":%d,"model":"openai/gpt-4o-mini","provider":"openai",`+
			`"steps":[{"id":"p","kind":"prompt","prompt":"say hi"}]}`, i, runs)
	}
	return "[" + strings.Join(parts, ",") + "]"
}
