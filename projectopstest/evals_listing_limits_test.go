package projectopstest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// An iteration listing's limit is clamped, never refused (api-spec.md 4.4,
// as the reference's route reads it): 0 and "abc" are the default, 50;
// 201 is the most, 200. A page that ends the run has no nextCursor, also
// when its limit is exactly what remained.
func TestIterationListingLimitClamped(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	ws := srv.Default()
	tg := inproc(srv)
	const total = 205
	results := make([]any, total)
	for i := range results {
		results[i] = map[string]any{"caseTitle": fmt.Sprintf("c%d", i), "passed": true}
	}
	var rep struct {
		RunID string `json:"runId"`
	}
	tg.call(t, http.MethodPost, "/projects/"+ws.ProjectID+"/eval-ingest/report", ws.APIKey,
		map[string]any{"suiteName": "s", "externalRunId": "e", "results": results}).decode(t, &rep)
	type page struct {
		Items      []json.RawMessage `json:"items"`
		NextCursor *string           `json:"nextCursor"`
	}
	list := func(query string) page {
		t.Helper()
		var p page
		tg.call(t, http.MethodGet, "/projects/"+ws.ProjectID+"/eval-runs/"+rep.RunID+"/iterations?"+query,
			ws.APIKey, nil).decode(t, &p)
		return p
	}
	for query, want := range map[string]int{"limit=0": 50, "limit=abc": 50, "limit=201": 200} {
		if p := list(query); len(p.Items) != want || p.NextCursor == nil {
			t.Errorf("%s: %d items, a nextCursor %v; want %d and a cursor to the rest", query, len(p.Items), p.NextCursor != nil, want)
		}
	}
	first := list("limit=200")
	if first.NextCursor == nil {
		t.Fatalf("limit=200 of %d: no nextCursor", total)
	}
	if last := list("limit=5&cursor=" + *first.NextCursor); len(last.Items) != 5 || last.NextCursor != nil {
		t.Errorf("the last 5 with limit=5: %d items, a nextCursor %v; want 5 and none", len(last.Items), last.NextCursor != nil)
	}
}

// The eval-suite listing is not paginated (api-spec.md section 2): 260
// suites come back in one page, with no nextCursor.
func TestEvalSuiteListingIsOnePage(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	ws := srv.Default()
	const n = 260
	for i := range n {
		if _, err := srv.AddEvalSuite(projectopstest.EvalSuiteSpec{ProjectID: ws.ProjectID, Name: fmt.Sprintf("s%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	var page map[string]json.RawMessage
	inproc(srv).call(t, http.MethodGet, "/projects/"+ws.ProjectID+"/eval-suites", ws.APIKey, nil).decode(t, &page)
	var items []json.RawMessage
	if err := json.Unmarshal(page["items"], &items); err != nil || len(items) != n {
		t.Errorf("%d suites listed (%v), want all %d", len(items), err, n)
	}
	if c, ok := page["nextCursor"]; ok {
		t.Errorf("nextCursor %s on a listing the service does not paginate", c)
	}
}
