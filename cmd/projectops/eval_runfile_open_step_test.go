package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRunFileKeepsWidgetAssertion: eval run --file reads a step's widget
// assertion and members the SDK does not model (the reference's steps are
// open objects) and sends them as written; a misspelt key elsewhere is
// still refused where it is, and a wrong type inside a step is placed
// where it is (its decoder counts from the step's start).
func TestRunFileKeepsWidgetAssertion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(in string) string {
		p := filepath.Join(dir, "run.json")
		if err := os.WriteFile(p, []byte(in), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	step := `{"id":"w","kind":"assert","assertion":{"type":"widgetVisible","selector":"#cart","timeoutMs":500},"x-note":"kept"}`
	rp, err := readRunFile(t.Context(), write(`{"suiteName":"s","tests":[{"title":"t","steps":[`+step+`]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(rp.Tests[0].Steps[0])
	if err != nil {
		t.Fatal(err)
	}
	var want, got map[string]any
	_ = json.Unmarshal([]byte(step), &want)
	_ = json.Unmarshal(out, &got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("step read from the file (-file +sent):\n%s", diff)
	}
	for in, want := range map[string]string{
		`{"suiteName":"s","tests":[{"title":"t","tilte":"x","steps":[]}]}`:                                                                                                                              `unknown field "tilte"`,
		"{\"suiteName\":\"s\",\"tests\":[{\"title\":\"t\",\n\"steps\":[{\"id\":\"a\",\"kind\":5}]}]}":                                                                                                   `line 2, column 27: field "RunParams.tests.steps.kind" must be a string, not a number`,
		"{\"tests\":[{\"title\":\"t\",\"steps\":[\n{\"id\":\"a\",\"kind\":\"assert\",\"assertion\":{\"type\":\"widgetVisible\"}},\n{\"id\":\"b\",\"kind\":\"assert\",\"assertion\":{\"type\":[1]}}]}]}": `line 3, column 47: field "RunParams.tests.steps.assertion.type" must be a string, not an array`,
	} {
		if _, err := readRunFile(t.Context(), write(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want %q", in, err, want)
		}
	}
}
