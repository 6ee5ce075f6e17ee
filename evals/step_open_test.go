package evals_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/option"
)

// asMap decodes a JSON object for comparison regardless of member order.
func asMap(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return m
}

// TestStepAndAssertionKeepUnmodelledMembers: the reference's EvalTestStep
// allows additional properties and its assertion is "Predicate or widget
// assertion", an open object. A step decoded from JSON (eval run --file)
// and encoded again is the same object: a widget assertion's selector and
// timeoutMs and an extra step member are not cut.
func TestStepAndAssertionKeepUnmodelledMembers(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{"id":"w","kind":"assert","assertion":{"type":"widgetVisible","selector":"#cart","timeoutMs":500},"x-note":"kept"}`,
		`{"id":"c","kind":"assert","assertion":{"type":"toolCalledWith","toolName":"echo","args":{"args":{"message":"hi"}},"minCount":2,"extra":{"deep":[1,null,"x"]}}}`,
		`{"id":"i","kind":"interact","action":{"click":"#buy"},"timeoutMs":1500,"label":null,"meta":{"a":[true]}}`,
		`{"id":"p","kind":"prompt","prompt":"hi"}`,
	} {
		var st evals.Step
		if err := json.Unmarshal([]byte(in), &st); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		out, err := json.Marshal(st)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if diff := cmp.Diff(asMap(t, []byte(in)), asMap(t, out)); diff != "" {
			t.Errorf("decode then encode changed the step (-in +out):\n%s", diff)
		}
	}
	// Through a Test too (the element type of RunParams.Tests).
	in := `{"title":"t","steps":[{"id":"w","kind":"assert","assertion":{"type":"widgetVisible","selector":"#x","timeoutMs":500}}]}`
	var tc evals.Test
	if err := json.Unmarshal([]byte(in), &tc); err != nil {
		t.Fatal(err)
	}
	if a := tc.Steps[0].Assertion; a == nil || a.Type != "widgetVisible" || string(a.Extra["selector"]) != `"#x"` {
		t.Errorf("decoded assertion: %+v", a)
	}
	out, _ := json.Marshal(tc)
	if diff := cmp.Diff(asMap(t, []byte(in)), asMap(t, out)); diff != "" {
		t.Errorf("test (-in +out):\n%s", diff)
	}
}

// TestStepExtraModelledFieldsWin: an Extra member naming a modelled field
// (in any case) is not sent; the field's value is.
func TestStepExtraModelledFieldsWin(t *testing.T) {
	t.Parallel()
	st := evals.PromptStep("p", "hi")
	st.Extra = map[string]json.RawMessage{"prompt": json.RawMessage(`"other"`), "KIND": json.RawMessage(`"x"`), "note": json.RawMessage(`1`)}
	st2 := evals.AssertCalledWith("a", "echo", nil)
	st2.Assertion.Extra = map[string]json.RawMessage{"type": json.RawMessage(`"other"`), "selector": json.RawMessage(`"#y"`)}
	for st, want := range map[*evals.Step]string{
		&st:  `{"id":"p","kind":"prompt","prompt":"hi","note":1}`,
		&st2: `{"id":"a","kind":"assert","assertion":{"type":"toolCalledWith","toolName":"echo","args":{"args":{}},"selector":"#y"}}`,
	} {
		b, err := json.Marshal(st)
		if err != nil || string(b) != want {
			t.Errorf("encoded %s (%v), want %s", b, err, want)
		}
	}
	// A key decoded into a modelled field without regard to case is not
	// kept a second time.
	var d evals.Step
	if err := json.Unmarshal([]byte(`{"id":"p","Kind":"prompt","PROMPT":"hi"}`), &d); err != nil || d.Extra != nil || d.Prompt != "hi" {
		t.Errorf("decoded %+v, %v", d, err)
	}
}

// TestRunsCreateSendsWidgetAssertionUnchanged: a test read from JSON, as
// eval run --file reads it, goes out with its widget assertion and extra
// step members as read.
func TestRunsCreateSendsWidgetAssertionUnchanged(t *testing.T) {
	t.Parallel()
	step := `{"id":"w","kind":"assert","assertion":{"type":"widgetVisible","selector":"#cart","timeoutMs":500},"x-note":"kept"}`
	var sent []byte
	rt := rtFunc(func(r *http.Request) (*http.Response, error) {
		sent, _ = io.ReadAll(r.Body)
		return &http.Response{StatusCode: 202, Request: r, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"runId":"r","suiteId":"s","status":"running","caseUpsert":{}}`))}, nil
	})
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"), option.WithTransport(rt), option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	var st evals.Step
	if err := json.Unmarshal([]byte(step), &st); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Evals.Runs.Create(t.Context(), "prj_1", evals.RunParams{SuiteName: "s", ServerIDs: []string{"srv"},
		Tests: []evals.Test{{Title: "t", Model: "anthropic/claude-haiku-4.5", Steps: []evals.Step{st}}}}); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Tests []struct {
			Steps []json.RawMessage `json:"steps"`
		} `json:"tests"`
	}
	if err := json.Unmarshal(sent, &body); err != nil || len(body.Tests) != 1 || len(body.Tests[0].Steps) != 1 {
		t.Fatalf("sent %s: %v", sent, err)
	}
	if diff := cmp.Diff(asMap(t, []byte(step)), asMap(t, body.Tests[0].Steps[0])); diff != "" {
		t.Errorf("sent step (-read +sent):\n%s", diff)
	}
}

// A type error inside a step names the public type, not the copy its
// decoder uses.
func TestStepTypeErrorNamesStep(t *testing.T) {
	t.Parallel()
	var s evals.Step
	err := json.Unmarshal([]byte(`{"id":"a","kind":"assert","assertion":{"type":"x","minCount":"two"}}`), &s)
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Struct != "Step" || strings.Contains(err.Error(), "Fields") {
		t.Errorf("err = %v (%#v)", err, te)
	}
}

// Decoding into a Step or Assertion already filled keeps the members the
// JSON leaves out, Extra's included, as encoding/json merges.
func TestStepDecodeMerges(t *testing.T) {
	t.Parallel()
	s := evals.Step{ID: "keep", Kind: evals.KindAssert, Extra: map[string]json.RawMessage{"a": json.RawMessage(`1`)},
		Assertion: &evals.Assertion{Type: "toolCalledWith", ToolName: "echo"}}
	if err := json.Unmarshal([]byte(`{"kind":"assert","b":2,"assertion":{"type":"toolCalledWith","x":3}}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.ID != "keep" || string(s.Extra["a"]) != "1" || string(s.Extra["b"]) != "2" ||
		s.Assertion.ToolName != "echo" || string(s.Assertion.Extra["x"]) != "3" {
		t.Errorf("merged decode = %+v, assertion %+v", s, s.Assertion)
	}
}
