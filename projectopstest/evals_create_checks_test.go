package projectopstest_test

import (
	"net/http"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// The service's schema takes skillsOverride only as "exclude"
// (z.literal("exclude").optional()): any other value, null included, is
// 400 on the field.
func TestEvalRunSkillsOverrideOnlyExclude(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(10))
	tg := inproc(f.srv)
	create := func(v any) result {
		t.Helper()
		p := map[string]any{"suiteName": "s", "serverIds": []string{f.serverID}, "skillsOverride": v,
			"tests": []evals.Test{{Title: "t", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "hi")}}}}
		req := must[*http.Request](t)(http.NewRequestWithContext(t.Context(), http.MethodPost,
			projectopstest.InProcessURL+"/projects/"+f.ws.ProjectID+"/eval-runs", jsonBody(t, p)))
		req.Header.Set("Authorization", "Bearer "+f.ws.APIKey)
		resp := must[*http.Response](t)(tg.client.Do(req))
		defer resp.Body.Close()
		return result{status: resp.StatusCode, header: resp.Header, body: must[[]byte](t)(readAll(resp))}
	}
	for _, v := range []any{"include", "", nil, true} {
		create(v).wantField(t, "skillsOverride")
	}
	if r := create("exclude"); r.status != http.StatusAccepted {
		t.Errorf(`skillsOverride "exclude": status %d %s, want 202`, r.status, r.body)
	}
}
