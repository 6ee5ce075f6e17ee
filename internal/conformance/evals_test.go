package conformance

import (
	"reflect"
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// The evals wire types against the reference schemas.
func TestEvalSchemasMatchGoTypes(t *testing.T) {
	t.Parallel()
	d := load(t)
	cases := map[string]reflect.Type{
		"EvalRun":                reflect.TypeFor[evals.Run](),
		"EvalIteration":          reflect.TypeFor[evals.Iteration](),
		"EvalSuite":              reflect.TypeFor[evals.Suite](),
		"EvalSuiteCreateRequest": reflect.TypeFor[evals.CreateSuiteParams](),
		"EvalSuiteCreated":       reflect.TypeFor[evals.SuiteCreated](),
		"EvalTestStep":           reflect.TypeFor[evals.Step](),
	}
	for name, typ := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			check(t, name, d.Components.Schemas[name], typ)
		})
	}
	// idempotencyKey is the 08-22 version's (reference-notes section 1).
	checkFields(t, "EvalRunCreateRequest", d.Components.Schemas["EvalRunCreateRequest"], reflect.TypeFor[evals.RunParams](),
		[]string{"idempotencyKey"})
	s := d.Components.Schemas["EvalSuite"]
	check(t, "EvalSuite.latestRun", s.Properties["latestRun"], reflect.TypeFor[evals.LatestRun]())
	check(t, "EvalSuite.totals", s.Properties["totals"], reflect.TypeFor[evals.Totals]())
	check(t, "EvalRun.summary", d.Components.Schemas["EvalRun"].Properties["summary"], reflect.TypeFor[evals.Summary]())
	// The suite-create test shape is the authoring Test (model, provider
	// and runs optional: they fall back to the suite's).
	check(t, "EvalSuiteCreateRequest.tests", d.Components.Schemas["EvalSuiteCreateRequest"].Properties["tests"].Items,
		reflect.TypeFor[evals.Test]())
	steps := d.Paths["/projects/{projectId}/eval-runs/{runId}/iterations/{iterationId}/steps"]["get"].Responses["200"].Content["application/json"].Schema
	check(t, "steps item", steps.Properties["items"].Items, reflect.TypeFor[evals.StepResult]())
}
