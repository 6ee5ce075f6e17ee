package views

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// A nullable field without a value is sent as null, never left out; a
// finished iteration's zero duration is a value.
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
	pending, _ := json.Marshal(IterationOf(evals.Iteration{ID: "itr_1"}, false))
	done, _ := json.Marshal(IterationOf(evals.Iteration{ID: "itr_1"}, true))
	if !strings.Contains(string(pending), `"durationMs":null`) || !strings.Contains(string(done), `"durationMs":0`) {
		t.Errorf("durationMs: pending %s, finished %s", pending, done)
	}
	if OrNull("") != nil || *OrNull("x") != "x" {
		t.Error("OrNull")
	}
}
