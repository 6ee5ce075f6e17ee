package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// An eval iteration's reason quotes the tool calls' arguments: what the
// CLI prints or writes of it (the --wait table and --json, JUnit, the
// Markdown summary, "eval iterations" and "eval trace", text and --json)
// is redacted as the reporter redacts results: the CLI's own API key, a
// tunnel URL's ?k= secret, a credential header's value and URL
// credentials never appear, in any of them.
func TestEvalOutputsRedactReasonsAndTraces(t *testing.T) {
	evalServer(t)
	key := os.Getenv("PROJECTOPS_API_KEY")
	demo := os.Getenv("EVAL_TEST_DEMO_SERVER")
	msg := "Authorization: Bearer " + key + " http://h/tunnels/t/api/mcp/adapter-http/srv_1?k=EVALTUNNELSECRET42" +
		" proxy http://bob:EVALPASSWORD77@proxy.local/"
	file := writeTests(t, evals.RunParams{SuiteName: "leak", ServerIDs: []string{demo}, Tests: []evals.Test{
		{Title: "t", Model: "openai/gpt-4o-mini", Steps: []evals.Step{
			evals.ToolCallStep("s1", "echo", map[string]any{"message": msg}),
			evals.AssertCalledWith("s2", "add", map[string]any{"args": map[string]any{}})}},
	}})
	dir := t.TempDir()
	junit, summary := filepath.Join(dir, "j.xml"), filepath.Join(dir, "s.md")
	leaks := func(what, s string) {
		t.Helper()
		for _, secret := range []string{key, strings.TrimPrefix(key, "sk_"), "EVALTUNNELSECRET42", "EVALPASSWORD77"} {
			if strings.Contains(s, secret) {
				t.Errorf("%s shows %q:\n%s", what, secret, s)
			}
		}
	}
	code, out, errOut := evalCLI(t, "run", "--file", file, "--wait", "--interval", "1ms", "--junit", junit, "--summary", summary)
	if code != 1 {
		t.Fatalf("run: %d\n%s\n%s", code, out, errOut)
	}
	leaks("the --wait table", out+errOut)
	runID := strings.Fields(out[strings.LastIndex(out, "run run_"):])[1]
	for _, f := range []string{junit, summary} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		leaks(filepath.Base(f), string(b))
		// Redacted, not dropped: the reason still says what was called.
		if !strings.Contains(string(b), "[REDACTED]") || !strings.Contains(string(b), "step s2") {
			t.Errorf("%s lost the reason:\n%s", filepath.Base(f), b)
		}
	}
	code, out, errOut = evalCLI(t, "run", "--file", file, "--wait", "--interval", "1ms", "--json")
	if code != 1 {
		t.Fatalf("run --json: %d\n%s\n%s", code, out, errOut)
	}
	leaks("run --wait --json", out+errOut)
	for _, json := range []string{"", "--json"} {
		args := []string{"iterations", runID}
		if json != "" {
			args = append(args, json)
		}
		code, out, errOut = evalCLI(t, args...)
		if code != 0 {
			t.Fatalf("iterations %s: %d\n%s", json, code, errOut)
		}
		leaks("iterations "+json, out+errOut)
		iterID := ""
		for _, f := range strings.Fields(out) {
			if f = strings.Trim(f, `",`); strings.HasPrefix(f, "itr_") {
				iterID = f
				break
			}
		}
		if iterID == "" {
			t.Fatalf("no iteration id in:\n%s", out)
		}
		args = []string{"trace", runID, iterID}
		if json != "" {
			args = append(args, json)
		}
		_, out, errOut = evalCLI(t, args...)
		leaks("trace "+json, out+errOut)
		if !strings.Contains(out, "echo") {
			t.Errorf("trace %s lost the tool call:\n%s", json, out)
		}
	}
}
