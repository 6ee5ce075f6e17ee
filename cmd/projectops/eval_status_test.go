package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// startRun creates a run of the tests in p with eval run (not following
// it) and returns what the service answered.
func startRun(t *testing.T, p evals.RunParams) evals.RunCreated {
	t.Helper()
	code, out, errOut := evalCLI(t, "run", "--file", writeTests(t, p), "--json")
	var rc evals.RunCreated
	if code != 0 || json.Unmarshal([]byte(out), &rc) != nil || rc.RunID == "" {
		t.Fatalf("eval run: exit %d\n%s\n%s", code, out, errOut)
	}
	return rc
}

// echoTest is one test that passes against the demo server (its tool call
// is the one asserted) or fails against the unreachable one.
func echoTest(serverID, notes string) evals.RunParams {
	return evals.RunParams{SuiteName: "gate", ServerIDs: []string{serverID}, Notes: notes, Tests: []evals.Test{{
		Title: "echo", Model: "openai/gpt-4o-mini", Steps: []evals.Step{
			evals.ToolCallStep("s1", "echo", map[string]any{"message": "hi"}),
			evals.AssertCalledWith("s2", "echo", nil)}}}}
}

// eval status follows a run it did not start as eval run --wait does
// (exit 0 passed, 1 failed, the iterations and verdict printed, a report
// written), and without --wait shows the run as it is, text and JSON.
func TestEvalStatusGatesOnAnExistingRun(t *testing.T) {
	_, downID := evalServer(t)
	pass := startRun(t, echoTest(os.Getenv("EVAL_TEST_DEMO_SERVER"), ""))
	code, out, errOut := evalCLI(t, "status", pass.RunID, "--wait", "--interval", "1ms")
	if code != 0 || !strings.Contains(out, "run "+pass.RunID+" completed: passed (1 passed, 0 failed of 1; pass rate 100%)") ||
		!strings.Contains(out, "TOOL CALLS") {
		t.Fatalf("status --wait of a passing run: exit %d\n%s\n%s", code, out, errOut)
	}

	code, out, errOut = evalCLI(t, "status", pass.RunID)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != 2 || lines[0] != "run "+pass.RunID+" completed: passed (1 passed, 0 failed of 1; pass rate 100%)" ||
		!strings.HasPrefix(lines[1], "suite "+pass.SuiteID+", run #1, source api, created 20") || !strings.Contains(lines[1], ", completed 20") {
		t.Errorf("status: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = evalCLI(t, "status", pass.RunID, "--json")
	var run evals.Run
	if code != 0 || json.Unmarshal([]byte(out), &run) != nil || run.ID != pass.RunID || !run.Passed() || run.Summary == nil || run.Summary.Total != 1 {
		t.Errorf("status --json: exit %d\n%s\n%s", code, out, errOut)
	}

	fail := startRun(t, echoTest(downID, ""))
	junit := filepath.Join(t.TempDir(), "junit.xml")
	code, out, errOut = evalCLI(t, "status", fail.RunID, "--wait", "--interval", "1ms", "--junit", junit)
	if code != 1 || !strings.Contains(out, "run "+fail.RunID+" failed: failed (0 passed, 1 failed of 1") || !strings.Contains(out, "SERVER_UNREACHABLE") {
		t.Fatalf("status --wait of a failing run: exit %d\n%s\n%s", code, out, errOut)
	}
	if x, err := os.ReadFile(junit); err != nil || !strings.Contains(string(x), "<testsuite") {
		t.Errorf("--junit: %v\n%s", err, x)
	}
	code, out, errOut = evalCLI(t, "status", fail.RunID, "--wait", "--json", "--interval", "1ms")
	var res struct {
		Run        evals.Run         `json:"run"`
		Iterations []evals.Iteration `json:"iterations"`
	}
	if code != 1 || json.Unmarshal([]byte(out), &res) != nil || res.Run.Result != evals.ResultFailed || len(res.Iterations) != 1 {
		t.Errorf("status --wait --json of a failing run: exit %d\n%s\n%s", code, out, errOut)
	}
}

// A run of another project is not found (the API's 404, exit 2), with or
// without --wait.
func TestEvalStatusRunOfAnotherProject(t *testing.T) {
	srv, _ := evalServer(t)
	rc := startRun(t, echoTest(os.Getenv("EVAL_TEST_DEMO_SERVER"), ""))
	ws := srv.Default()
	other, err := srv.AddProject(projectopstest.ProjectSpec{OrganizationID: ws.OrganizationID, Name: "other",
		Members: []projectopstest.MemberSpec{{UserID: ws.UserID, Role: projectopstest.RoleAdmin}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"status", "--project", other, rc.RunID}, {"status", "--project", other, rc.RunID, "--wait", "--interval", "1ms"}} {
		code, out, errOut := evalCLI(t, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "projectops eval status: GET /projects/"+other+"/eval-runs/"+rc.RunID+": 404 NOT_FOUND") {
			t.Errorf("%v: exit %d\n%s\n%s", args, code, out, errOut)
		}
	}
}

// The run's notes are service text: redacted, in text and JSON.
func TestEvalStatusRedactsNotes(t *testing.T) {
	evalServer(t)
	key := os.Getenv("PROJECTOPS_API_KEY")
	rc := startRun(t, echoTest(os.Getenv("EVAL_TEST_DEMO_SERVER"), "nightly with "+key))
	for _, args := range [][]string{{"status", rc.RunID}, {"status", rc.RunID, "--json"}} {
		code, out, errOut := evalCLI(t, args...)
		if code != 0 || !strings.Contains(out, "nightly with") || strings.Contains(out, strings.TrimPrefix(key, "sk_")) {
			t.Errorf("%v: exit %d\n%s\n%s", args, code, out, errOut)
		}
	}
}

// Bad usage exits 2 before a client is built: with no API key set, the
// usage is what is said.
func TestEvalStatusUsage(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", "")
	t.Setenv("PROJECTOPS_PROJECT", "prj_1")
	junit := filepath.Join(t.TempDir(), "j.xml")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"status"}, "want RUN_ID, got 0 argument(s)"},
		{[]string{"status", "run_1", "run_2"}, "want RUN_ID, got 2 argument(s)"},
		{[]string{"status", "run_1", "--junit", junit}, "--junit and --summary need --wait"},
		{[]string{"status", "run_1", "--wait-timeout", "5m"}, "--wait-timeout needs --wait"},
		{[]string{"status", "run_1", "--wait", "--interval", "0s"}, "--interval must be positive"},
		{[]string{"status", "run_1", "--wait", "--json", "--summary", "-"}, "--json and --junit - or --summary - both write to standard output"},
		{[]string{"status", "run_1", "--wait", "--junit", filepath.Join(t.TempDir(), "missing", "j.xml")}, "--junit"},
	} {
		code, out, errOut := evalCLI(t, tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "PROJECTOPS_API_KEY") {
			t.Errorf("%v: exit %d\n%s\n%s", tc.args, code, out, errOut)
		}
	}
}

// eval run without --wait says the command that follows the run it
// started (sent again with --wait, eval run would start another), and that
// command, run as printed, gates on it.
func TestEvalRunPrintsTheStatusCommand(t *testing.T) {
	evalServer(t)
	code, out, errOut := evalCLI(t, "run", "--file", writeTests(t, echoTest(os.Getenv("EVAL_TEST_DEMO_SERVER"), "")))
	_, cmd, ok := strings.Cut(strings.TrimSuffix(out, "\n"), "follow it with: projectops eval ")
	want := "status --base-url " + os.Getenv("PROJECTOPS_BASE_URL") + " --project " + os.Getenv("PROJECTOPS_PROJECT") + " --wait run_"
	if code != 0 || !ok || !strings.HasPrefix(cmd, want) {
		t.Fatalf("eval run: exit %d, want %s...\n%s\n%s", code, want, out, errOut)
	}
	code, out, errOut = evalCLI(t, append(strings.Fields(cmd), "--interval", "1ms")...)
	if code != 0 || !strings.Contains(out, "completed: passed") {
		t.Errorf("%s: exit %d\n%s\n%s", cmd, code, out, errOut)
	}
}
