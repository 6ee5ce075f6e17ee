package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
)

// A refused request's details.field is named in the error line, after the
// code, so a shell user sees which field was wrong; the exit code stays 2.
func TestAPIErrorNamesField(t *testing.T) {
	evalServer(t)
	file := writeTests(t, evals.RunParams{SuiteName: "ci", ServerIDs: []string{os.Getenv("EVAL_TEST_DEMO_SERVER")}, Tests: []evals.Test{
		{Title: "t", Model: "openai/not-a-model", Steps: []evals.Step{evals.PromptStep("p", "hi")}}}})
	code, _, errOut := evalCLI(t, "run", "--file", file)
	if code != 2 || !strings.Contains(errOut, "400 VALIDATION_ERROR (field tests[0].model): Unknown model") {
		t.Errorf("exit %d: %q", code, errOut)
	}
}

// The field shares the code's parenthesis with the reason, is one line
// and redacted, and nothing else of details is shown: it may echo the
// request's values.
func TestErrorLineField(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", "odd-shaped-KEY-987654")
	apiErr := func(reason projectops.Reason, details map[string]any) error {
		return &projectops.Error{StatusCode: 400, Code: projectops.CodeValidation, Message: "bad request",
			Reason: reason, Details: details, RequestID: "req_1", Method: "POST", Path: "/projects/p/eval-runs"}
	}
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"field", apiErr("", map[string]any{"field": "tests[0].steps[1].assertion.args.args", "value": "SECRETVALUE"}),
			"POST /projects/p/eval-runs: 400 VALIDATION_ERROR (field tests[0].steps[1].assertion.args.args): bad request [request req_1]"},
		{"field and reason", apiErr("NO_SAVED_SERVER_SELECTION", map[string]any{"field": "serverIds", "reason": "NO_SAVED_SERVER_SELECTION"}),
			"400 VALIDATION_ERROR (NO_SAVED_SERVER_SELECTION; field serverIds): bad request"},
		{"reason alone", apiErr("ORPHANED_KEY", map[string]any{"reason": "ORPHANED_KEY"}),
			"400 VALIDATION_ERROR (ORPHANED_KEY): bad request"},
		{"wrapped", fmt.Errorf("reporting failed: %w", apiErr("", map[string]any{"field": "results"})),
			"reporting failed: POST /projects/p/eval-runs: 400 VALIDATION_ERROR (field results): bad request"},
		{"not a string", apiErr("", map[string]any{"field": 3}), "400 VALIDATION_ERROR: bad request"},
		{"one line", apiErr("", map[string]any{"field": "a\nb\x1b[2Jc"}), "(field a b [2Jc)"},
		{"secrets masked", apiErr("", map[string]any{"field": "sk_live_abcdefgh12345 odd-shaped-KEY-987654 Bearer tok123456789"}),
			"(field sk_*** sk_*** Bearer [REDACTED])"},
	}
	for _, tc := range cases {
		var stderr bytes.Buffer
		a := &app{stderr: &stderr}
		if code := a.exit(nil, tc.err); code != exitError {
			t.Errorf("%s: exit %d, want %d", tc.name, code, exitError)
		}
		line := stderr.String()
		if !strings.Contains(line, tc.want) || strings.Count(line, "\n") != 1 {
			t.Errorf("%s: %q; want it containing %q, on one line", tc.name, line, tc.want)
		}
		for _, secret := range []string{"SECRETVALUE", "abcdefgh12345", "987654", "tok123456789"} {
			if strings.Contains(line, secret) {
				t.Errorf("%s: %q shows %s", tc.name, line, secret)
			}
		}
	}
}
