package projectopstest

import (
	"encoding/json"
	"strconv"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// suiteBody is a suite-create body as the double reads it: the SDK's
// params, with tests read as testBody for the keys the SDK does not model.
type suiteBody struct {
	evals.CreateSuiteParams
	Tests []testBody `json:"tests"`
}

// runBody is a run-create body as the double reads it: the SDK's params
// plus the keys of the service's schema the SDK does not send.
type runBody struct {
	evals.RunParams
	Tests []testBody `json:"tests,omitempty"`
	// ProjectID is accepted and ignored: the service merges the path's
	// projectId over the body's.
	ProjectID json.RawMessage `json:"projectId,omitempty"`
	// EnvironmentID needs SuiteID; the double has no suite environments,
	// so a valid one still names none attached.
	EnvironmentID *string `json:"environmentId,omitempty"`
	// CaseIDs scopes the run to those cases of the suite.
	CaseIDs []string `json:"caseIds,omitempty"`
	// MatchOptionsOverride is checked, not applied: the double's matcher
	// has one policy.
	MatchOptionsOverride json.RawMessage `json:"matchOptionsOverride,omitempty"`
}

// testBody is an authored test as the service's schemas read it; its
// matchOptions are checked, not stored (the double's matcher has one
// policy).
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

// checkRunBody checks the keys of a run body the SDK does not model, as
// the service's schema does, and moves its tests into RunParams.
func checkRunBody(p *runBody) *edge.Error {
	tests, herr := checkTestBodies("tests", p.Tests)
	if herr != nil {
		return herr
	}
	p.RunParams.Tests = tests
	// The service's refinement: an environment is launched only through a
	// suite that has it attached.
	if p.EnvironmentID != nil && p.SuiteID == "" {
		return edge.Validation("environmentId",
			"suiteId is required with environmentId: an environment runs through a suite that has it attached")
	}
	if p.CaseIDs != nil && len(p.CaseIDs) == 0 {
		return edge.Validation("caseIds", "caseIds must name at least one case")
	}
	for i, id := range p.CaseIDs {
		if id == "" {
			return edge.Validation("caseIds["+strconv.Itoa(i)+"]", "A case id must not be empty")
		}
	}
	if p.MatchOptionsOverride != nil {
		return checkMatchOptions("matchOptionsOverride", p.MatchOptionsOverride, true)
	}
	return nil
}
