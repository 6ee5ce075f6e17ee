package evals_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestLatestRunNullCountsStayNull: spec §2 gives latestRun.passRate,
// passed and failed as nullable (an in-flight run has no verdict). A null
// decodes as nil, not a 0% run, and encodes back as null; numbers the
// service sends, zero included, survive both ways.
func TestLatestRunNullCountsStayNull(t *testing.T) {
	t.Parallel()
	body := `{"items":[{"id":"evs_1","totals":{"passed":0,"failed":0,"runs":2},"passRateTrend":[],
		"latestRun":{"id":"run_1","status":"running","passRate":null,"passed":null,"failed":null,"createdAt":1700000000000}},
		{"id":"evs_2","totals":{"passed":0,"failed":1,"runs":1},"passRateTrend":[0],
		"latestRun":{"id":"run_2","status":"failed","passRate":0,"passed":0,"failed":1,"createdAt":1700000000000}}]}`
	c := bodyClient(t, body)
	page, err := c.Evals.Suites.List(t.Context(), "prj_1", nil)
	if err != nil {
		t.Fatal(err)
	}
	pending, done := page.Items[0].LatestRun, page.Items[1].LatestRun
	if pending.PassRate != nil || pending.Passed != nil || pending.Failed != nil {
		t.Errorf("nulls decoded as values: %+v", pending)
	}
	if done.PassRate == nil || *done.PassRate != 0 || done.Passed == nil || *done.Passed != 0 || done.Failed == nil || *done.Failed != 1 {
		t.Errorf("a finished run's counts: %+v", done)
	}
	for lr, want := range map[any]string{pending: `"passRate":null,"passed":null,"failed":null`, done: `"passRate":0,"passed":0,"failed":1`} {
		b, err := json.Marshal(lr)
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("encoded %s (%v), want %s", b, err, want)
		}
	}
}
