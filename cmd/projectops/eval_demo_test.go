package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// The demo workspace's seeded suite runs green out of the box, as
// `projectops eval run --project prj_demo --suite evs_smoke --wait` does
// against `projectops serve`.
func TestEvalRunDemoSuitePasses(t *testing.T) {
	demoAPI(t)
	code, out, errOut := runCLI(t, "eval", "run", "--project", "prj_demo", "--suite", "evs_smoke", "--wait",
		"--interval", "1ms")
	if code != 0 || !strings.Contains(out, "completed: passed (3 passed, 0 failed of 3; pass rate 100%)") {
		t.Fatalf("eval run: %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "eval", "run", "--project", "prj_demo", "--suite", "evs_smoke", "--wait",
		"--json", "--interval", "1ms")
	var res struct {
		Run        evals.Run         `json:"run"`
		Iterations []evals.Iteration `json:"iterations"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("eval run --json: %d %s %s", code, out, errOut)
	}
	titles := map[string][]string{}
	for _, it := range res.Iterations {
		for _, c := range it.ActualToolCalls {
			titles[it.Title] = append(titles[it.Title], c.ToolName)
		}
	}
	want := map[string]string{"echo answers": "echo", "the model picks echo": "echo", "add sums": "add"}
	for title, tool := range want {
		if calls := titles[title]; len(calls) != 1 || calls[0] != tool {
			t.Errorf("%q called %v, want [%s]", title, calls, tool)
		}
	}
	if res.Run.RunNumber != 2 || !res.Run.Passed() {
		t.Errorf("second run = %+v", res.Run)
	}
}
