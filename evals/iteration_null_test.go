package evals_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestIterationNullDurationAndTokensStayNull: the reference gives
// EvalIteration's tokensUsed and durationMs as number|null (durationMs
// null until terminal). A model-free iteration that finished in 0 ms with
// 0 tokens decodes as pointers to 0, a cancelled one's nulls as nil; both
// encode back as the service sent them (a real 0 is not dropped).
func TestIterationNullDurationAndTokensStayNull(t *testing.T) {
	t.Parallel()
	body := `{"items":[
		{"id":"zero","iterationNumber":1,"status":"completed","durationMs":0,"tokensUsed":0,"actualToolCalls":[],"expectedToolCalls":[]},
		{"id":"null","iterationNumber":2,"status":"cancelled","durationMs":null,"tokensUsed":null,"actualToolCalls":[],"expectedToolCalls":[]}]}`
	c := bodyClient(t, body)
	page, err := c.Evals.Runs.ListIterations(t.Context(), "prj_1", "run_1", nil)
	if err != nil {
		t.Fatal(err)
	}
	zero, null := page.Items[0], page.Items[1]
	if zero.DurationMs == nil || *zero.DurationMs != 0 || zero.TokensUsed == nil || *zero.TokensUsed != 0 {
		t.Errorf("a finished iteration's 0 ms and 0 tokens decoded as null (or not 0): %+v", zero)
	}
	if null.DurationMs != nil || null.TokensUsed != nil {
		t.Errorf("nulls decoded as values: durationMs %v, tokensUsed %v", null.DurationMs != nil, null.TokensUsed != nil)
	}
	for it, want := range map[string]string{"zero": `"durationMs":0,"tokensUsed":0`, "null": `"durationMs":null,"tokensUsed":null`} {
		v := zero
		if it == "null" {
			v = null
		}
		b, err := json.Marshal(v)
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s encoded %s (%v), want %s", it, b, err, want)
		}
	}
}
