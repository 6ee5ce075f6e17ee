package projectopstest_test

import (
	"fmt"
	"net/http"
	"testing"
)

// The authoring limits at their edges (api-spec.md section 8), on suite
// create and run create alike: 100 tests are taken and 101 refused naming
// tests; a test's runs is a whole number from 1 to 10, so 10 is taken and
// 11, 0, -1, 1.5 and "2" are refused naming tests[0].runs.
func TestEvalAuthoringLimitsAtTheEdge(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	tg := inproc(f.srv)
	p := "/projects/" + f.ws.ProjectID
	tests := func(n int, runs any) []any {
		out := make([]any, n)
		for i := range out {
			tc := map[string]any{"title": fmt.Sprintf("t%d", i), "model": "anthropic/claude-haiku-4.5",
				"steps": []any{map[string]any{"id": "p", "kind": "prompt", "prompt": "hi"}}}
			if runs != nil {
				tc["runs"] = runs
			}
			out[i] = tc
		}
		return out
	}
	routes := []struct {
		path   string
		status int
		body   func(name string, tests []any) map[string]any
	}{
		{"/eval-suites", http.StatusCreated, func(name string, tests []any) map[string]any {
			return map[string]any{"name": name, "serverIds": []string{f.serverID}, "model": "anthropic/claude-haiku-4.5", "tests": tests}
		}},
		{"/eval-runs", http.StatusAccepted, func(name string, tests []any) map[string]any {
			return map[string]any{"suiteName": name, "serverIds": []string{f.serverID}, "tests": tests}
		}},
	}
	for _, rt := range routes {
		for _, ok := range []struct {
			name  string
			tests []any
		}{{"100 tests", tests(100, nil)}, {"runs 10", tests(1, 10)}} {
			if r := tg.call(t, http.MethodPost, p+rt.path, f.ws.APIKey, rt.body(ok.name, ok.tests)); r.status != rt.status {
				t.Errorf("POST %s with %s: %d %s, want %d", rt.path, ok.name, r.status, r.body, rt.status)
			}
		}
		tg.call(t, http.MethodPost, p+rt.path, f.ws.APIKey, rt.body("101 tests", tests(101, nil))).wantField(t, "tests")
		for _, runs := range []any{11, 0, -1, 1.5, "2"} {
			r := tg.call(t, http.MethodPost, p+rt.path, f.ws.APIKey, rt.body(fmt.Sprintf("runs %v", runs), tests(1, runs)))
			t.Run(fmt.Sprintf("%s runs %#v", rt.path, runs), func(t *testing.T) { r.wantField(t, "tests[0].runs") })
		}
	}
	f.srv.Wait()
}
