package main

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/option"
)

// --server replaces the file's serverIds and drops its serverNames, which
// named those ids: kept, they would be paired with the flag's ids by
// position and saved as the suite's selection under the wrong names.
func TestEvalRunServerFlagDropsFileServerNames(t *testing.T) {
	srv, downID := evalServer(t)
	demoID := os.Getenv("EVAL_TEST_DEMO_SERVER")
	file := writeTests(t, evals.RunParams{SuiteName: "ci", ServerIDs: []string{downID}, ServerNames: []string{"Wrong"},
		Tests: []evals.Test{{Title: "echo", Model: "openai/gpt-4o-mini",
			Steps: []evals.Step{evals.PromptStep("p", "Use echo with message=hi")}}}})
	code, out, errOut := evalCLI(t, "run", "--file", file, "--server", demoID, "--json")
	if code != 0 {
		t.Fatalf("eval run: exit %d, stderr %q", code, errOut)
	}
	var rc evals.RunCreated
	if err := json.Unmarshal([]byte(out), &rc); err != nil || rc.SuiteID == "" {
		t.Fatalf("eval run --json: %v, %q", err, out)
	}
	ws := srv.Default()
	svc, err := evals.NewService(option.WithoutEnvironment(), option.WithBaseURL(srv.URL()),
		option.WithAPIKey(ws.APIKey), option.WithTransport(srv.Transport()))
	if err != nil {
		t.Fatal(err)
	}
	// A bare rerun runs on the suite's saved selection, named as saved.
	again, err := svc.Runs.Create(t.Context(), ws.ProjectID, evals.RunParams{SuiteID: rc.SuiteID})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Servers) != 1 || again.Servers[0].ID != demoID || again.Servers[0].Name != "demo" {
		t.Errorf("saved selection = %+v, want %s named demo", again.Servers, demoID)
	}
}
