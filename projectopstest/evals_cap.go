package projectopstest

import (
	"strconv"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/shared"
)

// maxRunModelCalls caps the model calls one run may issue (the service's
// MAX_TOTAL_LLM_CALLS).
const maxRunModelCalls = 300

// checkModelCallCap refuses a run whose tests would issue more than
// maxRunModelCalls model calls: each iteration calls the model once per
// prompt step, and iterationOverride, when given, replaces every test's
// runs. The service counts the request's inline tests when there are any,
// else the stored cases the run is scoped to.
func checkModelCallCap(tests []evals.Test, override int) *edge.Error {
	total := 0
	for _, t := range tests {
		runs := max(t.Runs, 1)
		if override > 0 {
			runs = override
		}
		prompts := 0
		for _, st := range t.Steps {
			if st.Kind == evals.KindPrompt {
				prompts++
			}
		}
		total += runs * prompts
	}
	if total <= maxRunModelCalls {
		return nil
	}
	return edge.NewError(shared.CodeValidation, "Suite run would issue "+strconv.Itoa(total)+" LLM calls, above the cap of "+
		strconv.Itoa(maxRunModelCalls)+". Reduce iterations or test count.", map[string]any{"totalCalls": total, "cap": maxRunModelCalls})
}
