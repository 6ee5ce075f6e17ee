package evals_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// A run as the 2026-08-22 reference sends it on the detail read fills the
// fields that version adds: score integrity, the pinned environment, the
// engine, the judges and the insights envelope.
func TestRunDecodesNewerServiceFields(t *testing.T) {
	t.Parallel()
	body := `{"id":"run_1","suiteId":"su_1","status":"completed","source":"api","createdAt":1,
		"scoreIntegrity":"invalid","environment":{"id":"env_1","name":"staging","revision":3},
		"executionEngine":"harness:claude-code",
		"judges":{"goalCompletion":{"status":"completed","cases":[]},"groundedness":{"status":null,"cases":[]}},
		"insights":{"schemaVersion":1,"status":"not_requested"}}`
	var r evals.Run
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	if r.ScoreIntegrity != evals.ScoreIntegrityInvalid || r.ExecutionEngine != "harness:claude-code" {
		t.Errorf("scoreIntegrity %q, executionEngine %q", r.ScoreIntegrity, r.ExecutionEngine)
	}
	if r.Environment == nil || *r.Environment != (evals.RunEnvironment{ID: "env_1", Name: "staging", Revision: 3}) {
		t.Errorf("environment = %+v", r.Environment)
	}
	if r.Judges == nil || !strings.Contains(string(r.Judges.GoalCompletion), `"completed"`) ||
		!strings.Contains(string(r.Judges.Groundedness), `"status":null`) {
		t.Errorf("judges = %+v", r.Judges)
	}
	if !strings.Contains(string(r.Insights), `"not_requested"`) {
		t.Errorf("insights = %s", r.Insights)
	}
}

// A run from a service without those fields (the 2026-07-09 reference)
// leaves them zero and encodes back without them; a null environment (a
// run over a saved server selection) reads as nil.
func TestRunWithoutNewerFieldsStaysZero(t *testing.T) {
	t.Parallel()
	var r evals.Run
	if err := json.Unmarshal([]byte(`{"id":"run_1","suiteId":"su_1","status":"running","source":"api","createdAt":1,"environment":null}`), &r); err != nil {
		t.Fatal(err)
	}
	if r.Environment != nil || r.Judges != nil || r.Insights != nil || r.ScoreIntegrity != "" || r.ExecutionEngine != "" {
		t.Errorf("newer fields not zero: %+v", r)
	}
	b, _ := json.Marshal(r)
	for _, k := range []string{"environment", "judges", "insights", "scoreIntegrity", "executionEngine"} {
		if strings.Contains(string(b), `"`+k+`"`) {
			t.Errorf("re-encoded run has %s: %s", k, b)
		}
	}
}

// An iteration as the 2026-08-22 reference sends it carries its scores,
// the scorer snapshot they were produced under, and the integrity flag.
func TestIterationDecodesScores(t *testing.T) {
	t.Parallel()
	body := `{"id":"itr_1","iterationNumber":1,"status":"completed","actualToolCalls":[],"expectedToolCalls":[],
		"scores":[{"scorerId":"exact","scorerVersion":"1","definitionHash":"h1","status":"scored","value":0,
			"passThreshold":0.5,"passed":false,"deterministic":true,"scope":{"kind":"turn","promptIndex":0}},
			{"scorerId":"judge","scorerVersion":"2","definitionHash":"h2","status":"error","passThreshold":0.7,
			"deterministic":false,"error":"timeout"}],
		"evaluationConfig":{"hash":"cfg","definitions":[]},"scoreIntegrity":"score_integrity_invalid"}`
	var it evals.Iteration
	if err := json.Unmarshal([]byte(body), &it); err != nil {
		t.Fatal(err)
	}
	if len(it.Scores) != 2 {
		t.Fatalf("scores = %+v", it.Scores)
	}
	s0, s1 := it.Scores[0], it.Scores[1]
	if s0.ScorerID != "exact" || s0.Value == nil || *s0.Value != 0 || s0.PassThreshold != 0.5 || !s0.Deterministic || s0.Scope["kind"] != "turn" {
		t.Errorf("scores[0] = %+v", s0)
	}
	if s1.Status != "error" || s1.Value != nil || s1.Error != "timeout" {
		t.Errorf("scores[1] = %+v", s1)
	}
	if string(it.EvaluationConfig) != `{"hash":"cfg","definitions":[]}` || it.ScoreIntegrity != "score_integrity_invalid" {
		t.Errorf("evaluationConfig %s, scoreIntegrity %q", it.EvaluationConfig, it.ScoreIntegrity)
	}
}

// The 202 of a run create from the 2026-08-22 reference echoes the group
// label and names the pinned environment; RunParams sends runGroupId only
// when set.
func TestRunCreatedAndParamsCarryRunGroup(t *testing.T) {
	t.Parallel()
	var rc evals.RunCreated
	body := `{"runId":"run_1","suiteId":"su_1","status":"running","caseUpsert":{},"runGroupId":"grp-1","environment":{"id":"env_1","revision":null}}`
	if err := json.Unmarshal([]byte(body), &rc); err != nil {
		t.Fatal(err)
	}
	if rc.RunGroupID != "grp-1" || rc.Environment == nil || rc.Environment.ID != "env_1" || rc.Environment.Revision != 0 {
		t.Errorf("created = %+v (environment %+v)", rc, rc.Environment)
	}
	with, _ := json.Marshal(evals.RunParams{SuiteID: "su_1", RunGroupID: "grp-1"})
	without, _ := json.Marshal(evals.RunParams{SuiteID: "su_1"})
	if !strings.Contains(string(with), `"runGroupId":"grp-1"`) || strings.Contains(string(without), "runGroupId") {
		t.Errorf("RunParams encodes as %s and %s", with, without)
	}
}

// TestRunSourceUI: the reference's EvalRun.source is one of ui, api and
// sdk; runs started in the hosted app come back as "ui" beside API runs.
func TestRunSourceUI(t *testing.T) {
	t.Parallel()
	var r evals.Run
	if err := json.Unmarshal([]byte(`{"runId":"r1","status":"completed","source":"ui","createdAt":1}`), &r); err != nil {
		t.Fatal(err)
	}
	if r.Source != evals.SourceUI {
		t.Errorf("Source = %q, want SourceUI", r.Source)
	}
}
