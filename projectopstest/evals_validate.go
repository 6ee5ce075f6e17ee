package projectopstest

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/evals"
)

// Limits of authored suites (reference service).
const (
	maxEvalTests = 100
	maxEvalRuns  = 10
)

// splitModel splits a provider/name hosted id.
func splitModel(id string) (provider, name string, hosted bool) {
	p, n, ok := strings.Cut(id, "/")
	return p, n, ok
}

// checkTests validates authored tests; field prefixes the names in errors.
func checkTests(field string, tests []evals.Test) *edge.Error {
	if len(tests) == 0 || len(tests) > maxEvalTests {
		return edge.Validation(field, field+" must hold 1 to "+strconv.Itoa(maxEvalTests)+" tests")
	}
	for i, t := range tests {
		tf := field + "[" + strconv.Itoa(i) + "]"
		if strings.TrimSpace(t.Title) == "" {
			return edge.Validation(tf+".title", "A test needs a title")
		}
		if t.Runs < 0 || t.Runs > maxEvalRuns {
			return edge.Validation(tf+".runs", "runs must be between 1 and "+strconv.Itoa(maxEvalRuns))
		}
		if len(t.Steps) == 0 {
			return edge.Validation(tf+".steps", "A test needs at least one step")
		}
		seen := map[string]bool{}
		for j, st := range t.Steps {
			if herr := checkStep(tf+".steps["+strconv.Itoa(j)+"]", st, seen); herr != nil {
				return herr
			}
		}
	}
	return nil
}

func checkStep(sf string, st evals.Step, seen map[string]bool) *edge.Error {
	if st.ID == "" {
		return edge.Validation(sf+".id", "A step needs an id")
	}
	if seen[st.ID] {
		return edge.Validation(sf+".id", "Step id "+edge.Quote(st.ID)+" is used twice in this test")
	}
	seen[st.ID] = true
	switch st.Kind {
	case evals.KindPrompt:
		if strings.TrimSpace(st.Prompt) == "" {
			return edge.Validation(sf+".prompt", "A prompt step needs a prompt")
		}
	case evals.KindToolCall:
		if st.ToolName == "" {
			return edge.Validation(sf+".toolName", "A toolCall step needs a toolName")
		}
	case evals.KindInteract:
	case evals.KindAssert:
		a := st.Assertion
		if a == nil || a.Type == "" {
			return edge.Validation(sf+".assertion", "An assert step needs an assertion with a type")
		}
		if a.Type == evals.AssertToolCalledWith {
			// The service's predicate schema: toolName, args {args: object,
			// argumentMatching?}, minCount? a positive whole number.
			switch {
			case a.ToolName == "":
				return edge.Validation(sf+".assertion.toolName", "A toolCalledWith assertion needs a toolName")
			case a.Args == nil || a.Args.Args == nil:
				return edge.Validation(sf+".assertion.args.args",
					`A toolCalledWith assertion needs args: {"args": {...expected arguments}}`)
			case !slices.Contains([]string{"", evals.ArgumentMatchingPartial, evals.ArgumentMatchingExact, evals.ArgumentMatchingIgnore}, a.Args.ArgumentMatching):
				return edge.Validation(sf+".assertion.args.argumentMatching", "argumentMatching must be exact, partial or ignore")
			case a.MinCount < 0:
				return edge.Validation(sf+".assertion.minCount", "minCount must be a positive whole number")
			}
		}
	default:
		return edge.Validation(sf+".kind", "kind must be one of prompt, toolCall, interact, assert")
	}
	return nil
}

// checkPassCriteria takes any minimum pass rate, as the service's schemas
// do (a plain number: above 100 no run passes, below 0 every run does);
// only what is not a finite number is refused.
func checkPassCriteria(pc *evals.PassCriteria) *edge.Error {
	if pc != nil && (math.IsNaN(pc.MinimumPassRate) || math.IsInf(pc.MinimumPassRate, 0)) {
		return edge.Validation("passCriteria.minimumPassRate", "minimumPassRate must be a number")
	}
	return nil
}
