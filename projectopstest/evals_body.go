package projectopstest

import (
	"encoding/json"
	"strconv"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// suiteBody is a suite-create body as the double reads it: the SDK's
// params, with tests read as testBody for their matchOptions.
type suiteBody struct {
	evals.CreateSuiteParams
	Tests []testBody `json:"tests"`
}

// runBody is a run-create body as the double reads it: the SDK's params,
// with tests read as testBody, and raw shadows for the two keys the SDK's
// type cannot read as the service does.
type runBody struct {
	evals.RunParams
	Tests []testBody `json:"tests,omitempty"`
	// ProjectID is not a field of RunParams (the SDK sends the project in
	// the path); the service's schema takes it and merges the path's over
	// it, so it is accepted and ignored.
	ProjectID json.RawMessage `json:"projectId,omitempty"`
	// MatchOptionsOverride shadows RunParams' own: the SDK's type holds
	// only the internal vocabulary and drops the public one the service
	// also takes, so it is read raw for checkMatchOptions. It is checked,
	// not applied: the double's matcher has one policy.
	MatchOptionsOverride json.RawMessage `json:"matchOptionsOverride,omitempty"`
	// SkillsOverride shadows RunParams' own so that a null, which the
	// SDK's string type would read as absent, is seen and refused.
	SkillsOverride json.RawMessage `json:"skillsOverride,omitempty"`
}

// testBody is an authored test as the service's schemas read it. Its
// matchOptions shadows evals.Test's for the reason runBody's override
// does (the SDK's type drops the public vocabulary); it is checked, not
// stored.
type testBody struct {
	evals.Test
	MatchOptions json.RawMessage `json:"matchOptions,omitempty"`
}

// checkTestBodies holds each test's advancedConfig and matchOptions to the
// service's schemas and returns the tests as the SDK's type.
func checkTestBodies(field string, in []testBody) ([]evals.Test, *edge.Error) {
	if in == nil {
		return nil, nil
	}
	out := make([]evals.Test, len(in))
	for i, t := range in {
		tf := field + "[" + strconv.Itoa(i) + "]"
		if herr := checkAdvancedConfig(tf+".advancedConfig", t.AdvancedConfig); herr != nil {
			return nil, herr
		}
		if t.MatchOptions != nil {
			if herr := checkMatchOptions(tf+".matchOptions", t.MatchOptions, false); herr != nil {
				return nil, herr
			}
		}
		out[i] = t.Test
	}
	return out, nil
}

// checkAdvancedConfig: the service's advancedConfig passes any key
// through but types two, system (a string) and temperature (a number).
func checkAdvancedConfig(field string, cfg map[string]any) *edge.Error {
	if v, ok := cfg["system"]; ok {
		if _, str := v.(string); !str {
			return edge.Validation(field+".system", "system must be a string")
		}
	}
	if v, ok := cfg["temperature"]; ok {
		if _, num := v.(float64); !num {
			return edge.Validation(field+".temperature", "temperature must be a number")
		}
	}
	return nil
}

// checkRunBody checks a run body's keys as the service's schema does and
// moves its tests into RunParams.
func checkRunBody(p *runBody) *edge.Error {
	tests, herr := checkTestBodies("tests", p.Tests)
	if herr != nil {
		return herr
	}
	p.RunParams.Tests = tests
	// The service's refinements read environmentId as present only when
	// truthy: "" is absent. An environment is launched only through a
	// suite that has it attached, and supplies its own closed server set.
	if p.EnvironmentID != "" && p.SuiteID == "" {
		return edge.Validation("environmentId",
			"suiteId is required with environmentId: an environment runs through a suite that has it attached")
	}
	if p.EnvironmentID != "" && len(p.ServerIDs) > 0 {
		return edge.Validation("environmentId",
			"environmentId and serverIds are mutually exclusive: an environment supplies its own closed server set")
	}
	if p.CaseIDs != nil && len(p.CaseIDs) == 0 {
		return edge.Validation("caseIds", "caseIds must name at least one case")
	}
	for i, id := range p.CaseIDs {
		if id == "" {
			return edge.Validation("caseIds["+strconv.Itoa(i)+"]", "A case id must not be empty")
		}
	}
	// The double's choice: a suite the request creates has no case ids
	// yet, so caseIds could never name one. The service authors the suite
	// before its backend (not in the reference) scopes the run; refusing
	// first stores nothing, where authoring would leave a suite per try.
	if p.CaseIDs != nil && p.SuiteID == "" {
		return edge.Validation("caseIds", "caseIds names cases of a stored suite: pass suiteId with it")
	}
	// The service's schema takes skillsOverride only as "exclude".
	if p.SkillsOverride != nil {
		var v string
		if json.Unmarshal(p.SkillsOverride, &v) != nil || v != string(evals.SkillsExclude) {
			return edge.Validation("skillsOverride", `skillsOverride must be "exclude" when given`)
		}
	}
	if p.MatchOptionsOverride != nil {
		return checkMatchOptions("matchOptionsOverride", p.MatchOptionsOverride, true)
	}
	return nil
}
