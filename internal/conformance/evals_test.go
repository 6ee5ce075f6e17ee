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
	// idempotencyKey, runGroupId and the fields after them are the 08-22
	// version's (reference-notes sections 1 and 3.7), as are the run's and
	// iteration's fields below; RunParams has all of the 08-22 request's.
	checkFields(t, "EvalRunCreateRequest", d.Components.Schemas["EvalRunCreateRequest"], reflect.TypeFor[evals.RunParams](),
		[]string{"idempotencyKey", "runGroupId", "serverNames", "suiteRerun", "environmentId", "namedHostId", "caseIds",
			"matchOptionsOverride", "skillsOverride", "refreshSnapshot"})
	checkFields(t, "EvalRun", d.Components.Schemas["EvalRun"], reflect.TypeFor[evals.Run](),
		[]string{"scoreIntegrity", "environment", "executionEngine", "judges", "insights"})
	checkFields(t, "EvalIteration", d.Components.Schemas["EvalIteration"], reflect.TypeFor[evals.Iteration](),
		[]string{"scores", "evaluationConfig", "scoreIntegrity"})
	// The types of those fields against the 08-22 schemas.
	later := reference0822(t).Components.Schemas
	check(t, "EvalRunCreateRequest (08-22)", later["EvalRunCreateRequest"], reflect.TypeFor[evals.RunParams]())
	check(t, "ScoreResult", later["ScoreResult"], reflect.TypeFor[evals.ScoreResult]())
	check(t, "EvalRunEnvironment", later["EvalRunEnvironment"], reflect.TypeFor[evals.RunEnvironment]())
	check(t, "EvalRunJudges", later["EvalRunJudges"], reflect.TypeFor[evals.RunJudges]())
	s := d.Components.Schemas["EvalSuite"]
	check(t, "EvalSuite.latestRun", s.Properties["latestRun"], reflect.TypeFor[evals.LatestRun]())
	check(t, "EvalSuite.totals", s.Properties["totals"], reflect.TypeFor[evals.Totals]())
	check(t, "EvalRun.summary", d.Components.Schemas["EvalRun"].Properties["summary"], reflect.TypeFor[evals.Summary]())
	// The suite-create test shape is the authoring Test (model, provider
	// and runs optional: they fall back to the suite's). matchOptions is
	// not in the reference's schemas; the service takes it on both creates.
	checkFields(t, "EvalSuiteCreateRequest.tests", d.Components.Schemas["EvalSuiteCreateRequest"].Properties["tests"].Items,
		reflect.TypeFor[evals.Test](), []string{"matchOptions"})
	steps := d.Paths["/projects/{projectId}/eval-runs/{runId}/iterations/{iterationId}/steps"]["get"].Responses["200"].Content["application/json"].Schema
	check(t, "steps item", steps.Properties["items"].Items, reflect.TypeFor[evals.StepResult]())
}
