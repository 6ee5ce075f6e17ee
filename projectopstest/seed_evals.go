package projectopstest

import (
	"encoding/json"
	"fmt"

	"github.com/projectops/projectops-go/evals"
)

// checkSuiteSpecLocked validates an EvalSuiteSpec's authoring fields as
// POST eval-suites validates its body; a spec without them passes. The
// tests are replaced by their JSON round trip, so they are stored exactly
// as the route would store them (numbers in arguments become float64) and
// the caller's maps are never shared. spec is the caller's own copy.
func (e *evalEngine) checkSuiteSpecLocked(spec *EvalSuiteSpec) error {
	if !spec.authored() {
		return nil
	}
	b, err := json.Marshal(spec.Tests)
	if err == nil {
		spec.Tests = nil
		err = json.Unmarshal(b, &spec.Tests)
	}
	if err != nil {
		return fmt.Errorf("eval suite %q: tests: %w", spec.Name, err)
	}
	p := evals.CreateSuiteParams{Name: spec.Name, Description: spec.Description, ServerIDs: spec.ServerIDs,
		Model: spec.Model, Provider: spec.Provider, PassCriteria: spec.PassCriteria, Tests: spec.Tests}
	if herr := e.checkSuiteParams(&p); herr != nil {
		if field, _ := herr.Body.Details["field"].(string); field != "" {
			return apiRefused(herr, fmt.Sprintf("eval suite %q: %s", spec.Name, field))
		}
		return apiRefused(herr, fmt.Sprintf("eval suite %q", spec.Name))
	}
	return nil
}

// authorSuite gives a stored suite the spec's defaults and tests
// (checked by checkSuiteSpecLocked), as createEvalSuite does.
func (st *state) authorSuite(su *evalSuiteRec, spec *EvalSuiteSpec) {
	if !spec.authored() {
		return
	}
	su.def = &suiteDef{description: spec.Description, model: spec.Model, provider: spec.Provider}
	if pc := spec.PassCriteria; pc != nil {
		su.def.passCriteria = &evals.PassCriteria{MinimumPassRate: pc.MinimumPassRate}
	}
	st.upsertCases(su, spec.Tests)
}
