package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A tests file whose toolCalledWith assertion gives its expected arguments
// as a plain object ("args": {"a": 1}, as api-spec.md §4.4 words it) is
// refused by the service (and the double) with 400 VALIDATION_ERROR when
// posted as it is. "eval run --file" decodes it through evals.ArgMatcher,
// which drops the unknown key "a", and sends {"args": {}}: any call of the
// tool then matches, so the gate passes (exit 0) although add was called
// with a=2. The file must be refused (exit 2), or at least the run must not
// pass.
func TestRunFileFlatToolCalledWithArgsIsNotSilentlyEmptied(t *testing.T) {
	demoAPI(t)
	file := filepath.Join(t.TempDir(), "tests.json")
	body := `{"suiteName":"flat-args","serverIds":["srv_demo"],"tests":[{"title":"t","model":"openai/gpt-4o-mini",
"steps":[{"id":"p","kind":"prompt","prompt":"use add with a=2 b=3"},
{"id":"a","kind":"assert","assertion":{"type":"toolCalledWith","toolName":"add","args":{"a":1}}}]}]}`
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "eval", "run", "-p", "prj_demo", "--file", file, "--wait")
	if code == 0 {
		t.Errorf("exit 0: the run passed with the expected arguments {\"a\":1} dropped (add was called with a=2)\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}
	if code != 2 || !strings.Contains(errOut, "args") {
		t.Errorf("want exit 2 naming the assertion's args, as the API's 400 VALIDATION_ERROR does; got exit %d, stderr %q", code, errOut)
	}
}
