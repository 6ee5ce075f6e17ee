package conformance

import (
	"reflect"
	"slices"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/apierr"
)

// The eval types the other tests leave out, and the error envelope.
func TestRemainingSchemasMatchGoTypes(t *testing.T) {
	t.Parallel()
	d := load(t)
	sc := d.Components.Schemas
	// deduped, runGroupId and environment are the 08-22 version's
	// (reference-notes sections 3.4 and 3.7).
	checkFields(t, "EvalRunCreated", sc["EvalRunCreated"], reflect.TypeFor[evals.RunCreated](),
		[]string{"deduped", "runGroupId", "environment"})
	check(t, "Error", sc["Error"], reflect.TypeFor[apierr.Body]())
	// An inline test case: the reference marks model, provider and runs
	// required, the specification (which wins) makes them optional with
	// the suite's defaults, so only the names are compared.
	tc := *sc["EvalTestCase"]
	tc.Required = slices.DeleteFunc(slices.Clone(tc.Required), func(r string) bool {
		return r == "model" || r == "provider" || r == "runs"
	})
	// scenario belongs to a suite-create test, which shares the Go type;
	// matchOptions the service takes on both creates, unlisted.
	checkFields(t, "EvalTestCase", &tc, reflect.TypeFor[evals.Test](), []string{"scenario", "matchOptions"})
	for _, name := range []string{"EvalRunPage", "EvalSuitePage", "EvalIterationPage"} {
		s := sc[name]
		if s == nil || s.Properties["items"] == nil || len(s.Properties) > 2 {
			t.Errorf("%s is not the {items, nextCursor?} envelope", name)
		}
	}
}

// Every schema of the reference is held against an SDK type by one of this
// package's tests (or is a page envelope, checked as one). A schema the
// reference adds fails here until it is mapped.
func TestEveryReferenceSchemaIsCovered(t *testing.T) {
	t.Parallel()
	covered := []string{
		// conformance_test.go
		"Me", "Project", "ChatSession", "Chatbox", "ChatboxDetail", "ChatboxLink", "ChatboxServer", "ProjectServer",
		"Host", "HostDetail", "HostCreateRequest", "HostUpdateRequest", "HostDeleted",
		"ChatSessionPage", "ChatboxPage", "HostPage", "ProjectPage", "ProjectServerPage",
		// evals_test.go and this file
		"EvalRun", "EvalIteration", "EvalSuite", "EvalSuiteCreateRequest", "EvalSuiteCreated", "EvalRunCreateRequest",
		"EvalTestStep", "EvalRunCreated", "EvalTestCase", "EvalRunPage", "EvalSuitePage", "EvalIterationPage", "Error",
		// environments_test.go
		"ComputerEnvironment", "ComputerEnvironmentBuild", "ComputerEnvironmentCreateRequest",
		"ComputerEnvironmentUpdateRequest", "ComputerEnvironmentDeleted", "ComputerEnvironmentBuildStarted",
		"ComputerAttached", "ComputerReset", "ComputerEnvironmentPage", "ComputerEnvironmentBuildPage",
		// servers_test.go
		"CallToolResult", "CheckOAuthResult", "DoctorCheck", "DoctorReport", "ExportSnapshot", "GetPromptResult",
		"ImportTokensRequest", "ImportTokensResult", "Prompt", "PromptPage", "Resource", "ResourceContents",
		"ResourcePage", "Tool", "ToolPage", "ValidateResult",
		// tunnels_test.go
		"TunnelClosed", "TunnelCreateRequest", "TunnelGrant",
	}
	for name := range load(t).Components.Schemas {
		if !slices.Contains(covered, name) {
			t.Errorf("reference schema %s is not held against any SDK type", name)
		}
	}
}
