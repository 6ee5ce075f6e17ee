package evals_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// recordingClient is a client answering every call 202 with a new run and
// keeping the last request body.
func recordingClient(t *testing.T) (*projectops.Client, *atomic.Value) {
	t.Helper()
	var sent atomic.Value
	rt := rtFunc(func(r *http.Request) (*http.Response, error) {
		body, _ := io.ReadAll(r.Body)
		sent.Store(body)
		return &http.Response{StatusCode: 202, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"runId":"r","suiteId":"s","status":"running"}`)), Request: r}, nil
	})
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"), option.WithTransport(rt),
		option.WithBaseURL("https://api.example/api/v1"))
	if err != nil {
		t.Fatal(err)
	}
	return c, &sent
}

// sentBody creates a run with p and returns the body that went out.
func sentBody(t *testing.T, p evals.RunParams) map[string]json.RawMessage {
	t.Helper()
	c, sent := recordingClient(t)
	if _, err := c.Evals.Runs.Create(t.Context(), "p", p); err != nil {
		t.Fatal(err)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(sent.Load().([]byte), &body); err != nil {
		t.Fatal(err)
	}
	return body
}

// Each field of the 2026-08-22 run request goes out under its JSON name
// with its JSON type, and none when zero.
func TestRunParamsNewerFieldsOnTheWire(t *testing.T) {
	t.Parallel()
	two := 2
	p := evals.RunParams{SuiteID: "evs_1", ServerNames: []string{"demo"}, SuiteRerun: true,
		EnvironmentID: "env_1", NamedHostID: "host_1", CaseIDs: []string{"c1", "c2"},
		MatchOptionsOverride: &evals.MatchOptions{ToolCallOrder: evals.ToolCallOrderSuperset, MaxExtraToolCalls: &two,
			ArgumentMatching: evals.ArgumentMatchingExact},
		SkillsOverride: evals.SkillsExclude, RefreshSnapshot: true,
		Tests: []evals.Test{{Title: "t", Steps: []evals.Step{evals.PromptStep("a", "hi")},
			MatchOptions: &evals.MatchOptions{ToolCallOrder: evals.ToolCallOrderStrict}}}}
	body := sentBody(t, p)
	want := map[string]string{
		"serverNames":          `["demo"]`,
		"suiteRerun":           `true`,
		"environmentId":        `"env_1"`,
		"namedHostId":          `"host_1"`,
		"caseIds":              `["c1","c2"]`,
		"matchOptionsOverride": `{"toolCallOrder":"superset","maxExtraToolCalls":2,"argumentMatching":"exact"}`,
		"skillsOverride":       `"exclude"`,
		"refreshSnapshot":      `true`,
	}
	for k, v := range want {
		if got := string(body[k]); got != v {
			t.Errorf("%s = %s, want %s", k, got, v)
		}
	}
	var tests []map[string]json.RawMessage
	if err := json.Unmarshal(body["tests"], &tests); err != nil || len(tests) != 1 {
		t.Fatalf("tests = %s, %v", body["tests"], err)
	}
	if got := string(tests[0]["matchOptions"]); got != `{"toolCallOrder":"strict"}` {
		t.Errorf("tests[0].matchOptions = %s", got)
	}

	zero := sentBody(t, evals.RunParams{SuiteID: "evs_1", Tests: []evals.Test{{Title: "t"}}})
	for k := range want {
		if v, ok := zero[k]; ok {
			t.Errorf("zero %s sent as %s", k, v)
		}
	}
	if strings.Contains(string(zero["tests"]), "matchOptions") {
		t.Errorf("zero test sent matchOptions: %s", zero["tests"])
	}
}

// maxExtraToolCalls has three values on the wire: a count (0 included),
// null (unlimited, overriding a suite's cap) and absent (the suite's).
func TestMatchOptionsOverrideExtraToolCalls(t *testing.T) {
	t.Parallel()
	zero, yes := 0, true
	for _, tc := range []struct {
		m    evals.MatchOptions
		want string
	}{
		{evals.MatchOptions{MaxExtraToolCalls: &zero}, `{"maxExtraToolCalls":0}`},
		{evals.MatchOptions{UnlimitedExtraToolCalls: true}, `{"maxExtraToolCalls":null}`},
		{evals.MatchOptions{AllowExtraToolCalls: &yes}, `{"allowExtraToolCalls":true}`},
		{evals.MatchOptions{}, `{}`},
	} {
		body := sentBody(t, evals.RunParams{SuiteID: "evs_1", MatchOptionsOverride: &tc.m})
		if got := string(body["matchOptionsOverride"]); got != tc.want {
			t.Errorf("%+v sent as %s, want %s", tc.m, got, tc.want)
		}
		var back evals.MatchOptions
		if err := json.Unmarshal([]byte(tc.want), &back); err != nil || !sameMatch(back, tc.m) {
			t.Errorf("%s decodes to %+v, %v", tc.want, back, err)
		}
	}
}

func sameMatch(a, b evals.MatchOptions) bool {
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	return string(ab) == string(bb) && a.UnlimitedExtraToolCalls == b.UnlimitedExtraToolCalls &&
		(a.MaxExtraToolCalls == nil) == (b.MaxExtraToolCalls == nil)
}

// A cap and unlimited at once is refused before anything is sent, naming
// the field, on the override and on a test of either create.
func TestMatchOptionsConflictRefused(t *testing.T) {
	t.Parallel()
	one := 1
	bad := &evals.MatchOptions{MaxExtraToolCalls: &one, UnlimitedExtraToolCalls: true}
	c, sent := recordingClient(t)
	_, err1 := c.Evals.Runs.Create(t.Context(), "p", evals.RunParams{SuiteID: "s", MatchOptionsOverride: bad})
	_, err2 := c.Evals.Runs.Create(t.Context(), "p", evals.RunParams{SuiteID: "s",
		Tests: []evals.Test{{Title: "a"}, {Title: "b", MatchOptions: bad}}})
	_, err3 := c.Evals.Suites.Create(t.Context(), "p", evals.CreateSuiteParams{Name: "s",
		Tests: []evals.Test{{Title: "b", MatchOptions: bad}}})
	for i, tc := range []struct {
		err   error
		field string
	}{{err1, "matchOptionsOverride.maxExtraToolCalls"}, {err2, "tests[1].matchOptions.maxExtraToolCalls"},
		{err3, "tests[0].matchOptions.maxExtraToolCalls"}} {
		var e *shared.Error
		if !errors.As(tc.err, &e) || e.Code != shared.CodeValidation || e.Details["field"] != tc.field {
			t.Errorf("%d: err = %v, want a VALIDATION_ERROR on %s", i, tc.err, tc.field)
		}
	}
	if sent.Load() != nil {
		t.Errorf("sent %s", sent.Load())
	}
}
