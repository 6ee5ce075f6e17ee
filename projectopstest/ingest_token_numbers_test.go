package projectopstest_test

import (
	"strconv"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
)

// The ingest schema types token counts as numbers: 12.0 and 1e3 (as
// Python's json or a JavaScript float writes them) are whole counts and
// read back exact, through the SDK and raw; a fractional count keeps its
// exact sum in tokensUsed (a number in the reference) and has no usage,
// whose counts the SDK holds as ints.
func TestIngestedTokenNumbers(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	c := must[*projectops.Client](t)(srv.NewClient())
	for i, tc := range []struct {
		tokens string
		used   float64
		input  int // -1: no usage
	}{
		{`{"input":12.0,"output":3}`, 15, 12},
		{`{"input":1e3,"output":3}`, 1003, 1000},
		{`{"input":10.5,"output":5}`, 15.5, -1},
	} {
		body := `{"suiteName":"tokens","externalRunId":"tok-` + strconv.Itoa(i) + `","results":[` +
			`{"caseTitle":"c","passed":true,"tokens":` + tc.tokens + `}]}`
		var rep struct {
			RunID string `json:"runId"`
		}
		tg.call(t, "POST", "/projects/"+ws.ProjectID+"/eval-ingest/report", ws.APIKey, body).decode(t, &rep)

		var raw struct {
			Items []map[string]any `json:"items"`
		}
		tg.call(t, "GET", "/projects/"+ws.ProjectID+"/eval-runs/"+rep.RunID+"/iterations", ws.APIKey, nil).decode(t, &raw)
		if len(raw.Items) != 1 {
			t.Fatalf("%s: %d iterations, want 1", tc.tokens, len(raw.Items))
		}
		usage, _ := raw.Items[0]["usage"].(map[string]any)
		if got := raw.Items[0]["tokensUsed"]; got != tc.used {
			t.Errorf("%s raw: tokensUsed = %v, want %v", tc.tokens, got, tc.used)
		}
		if (tc.input < 0) != (usage == nil) || tc.input >= 0 && usage["inputTokens"] != float64(tc.input) {
			t.Errorf("%s raw: usage = %v, want inputTokens %d", tc.tokens, usage, tc.input)
		}

		page, err := c.Evals.Runs.ListIterations(t.Context(), ws.ProjectID, rep.RunID, nil)
		if err != nil {
			t.Fatalf("%s: ListIterations: %v", tc.tokens, err)
		}
		it := page.Items[0]
		if it.TokensUsed == nil || *it.TokensUsed != tc.used {
			t.Errorf("%s SDK: TokensUsed = %v, want %v", tc.tokens, ptrVal(it.TokensUsed), tc.used)
		}
		if (tc.input < 0) != (it.Usage == nil) || it.Usage != nil && it.Usage.InputTokens != tc.input {
			t.Errorf("%s SDK: Usage = %+v, want InputTokens %d", tc.tokens, it.Usage, tc.input)
		}
	}
}

// The IngestedIteration hook reads a whole count written 12.0 as 12.
func TestIngestedIterationHookTokenNumbers(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	body := `{"suiteName":"tokens","externalRunId":"tok-hook","results":[` +
		`{"caseTitle":"c","passed":true,"tokens":{"input":12.0,"output":1e1}}]}`
	var rep struct {
		RunID string `json:"runId"`
	}
	inproc(srv).call(t, "POST", "/projects/"+ws.ProjectID+"/eval-ingest/report", ws.APIKey, body).decode(t, &rep)
	its, ok := srv.IngestedIterations(rep.RunID)
	if !ok || len(its) != 1 {
		t.Fatalf("IngestedIterations: %d, %v", len(its), ok)
	}
	if in := its[0].Input; in.CaseTitle != "c" || in.Tokens == nil || in.Tokens.Input != 12 || in.Tokens.Output != 10 {
		t.Errorf("Input = %+v (tokens %+v)", in, in.Tokens)
	}
}
