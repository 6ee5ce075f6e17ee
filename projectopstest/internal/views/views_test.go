package views

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// A nullable field without a value is sent as null, never left out; a
// finished iteration's zero duration or token count is a value.
func TestNullableFields(t *testing.T) {
	b, err := json.Marshal(RunOf(evals.Run{ID: "run_1"}))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"result":null`, `"notes":null`, `"completedAt":null`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("run %s lacks %s", b, want)
		}
	}
	zero := 0.0
	pending, _ := json.Marshal(IterationOf(evals.Iteration{ID: "itr_1"}))
	done, _ := json.Marshal(IterationOf(evals.Iteration{ID: "itr_1", DurationMs: &zero, TokensUsed: &zero}))
	if !strings.Contains(string(pending), `"durationMs":null`) || !strings.Contains(string(done), `"durationMs":0`) ||
		!strings.Contains(string(pending), `"tokensUsed":null`) || !strings.Contains(string(done), `"tokensUsed":0`) {
		t.Errorf("durationMs/tokensUsed: pending %s, finished %s", pending, done)
	}
	if OrNull("") != nil || *OrNull("x") != "x" {
		t.Error("OrNull")
	}
}
