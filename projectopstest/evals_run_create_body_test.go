package projectopstest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// The body's idempotencyKey is held to the service's schema, 1 to 256
// characters, unless a header key the gateway honours takes its place
// first (the service puts the header's key into the body before parsing
// it); a blank header is ignored, not rejected, and replaces nothing.
func TestEvalRunBodyIdempotencyKeyBounds(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(50))
	tg := inproc(f.srv)
	create := func(header string, bodyKey any) result {
		t.Helper()
		p := map[string]any{"suiteName": "s", "serverIds": []string{f.serverID}, "idempotencyKey": bodyKey,
			"tests": []evals.Test{{Title: "t", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "hi")}}}}
		req := must[*http.Request](t)(http.NewRequestWithContext(t.Context(), http.MethodPost,
			projectopstest.InProcessURL+"/projects/"+f.ws.ProjectID+"/eval-runs", jsonBody(t, p)))
		req.Header.Set("Authorization", "Bearer "+f.ws.APIKey)
		if header != "" {
			req.Header.Set("X-Mcpjam-Idempotency-Key", header)
		}
		resp := must[*http.Response](t)(tg.client.Do(req))
		defer resp.Body.Close()
		return result{status: resp.StatusCode, header: resp.Header, body: must[[]byte](t)(readAll(resp))}
	}
	create("", "").wantField(t, "idempotencyKey")
	create("   ", "").wantField(t, "idempotencyKey")
	create("", nil).wantField(t, "idempotencyKey") // optional is absent, not null
	for _, bodyKey := range []any{"", strings.Repeat("x", 257), nil} {
		if r := create("h1", bodyKey); r.status != http.StatusAccepted {
			t.Errorf("body key %.10q under a header key: status %d %s, want 202", bodyKey, r.status, r.body)
		}
	}
}

// RunParams.RunGroupID, a display label, is accepted on run create (the
// double, like the 2026-07-09 reference, does not echo it).
func TestEvalRunCreateAcceptsRunGroupID(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	p := evals.RunParams{SuiteName: "s", ServerIDs: []string{f.serverID}, RunGroupID: "grp-1",
		Tests: []evals.Test{{Title: "t", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "hi")}}}}
	if rc, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, p); err != nil || rc.RunID == "" {
		t.Fatalf("create with a runGroupId: %+v, %v", rc, err)
	}
}

// runGroupId, like idempotencyKey, is an optional string in the service's
// schema: null is refused, not read as absent.
func TestEvalRunCreateRefusesNullRunGroupID(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	tg := inproc(f.srv)
	body := map[string]any{"suiteName": "s", "serverIds": []string{f.serverID}, "runGroupId": nil,
		"tests": []evals.Test{{Title: "t", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "hi")}}}}
	tg.call(t, "POST", "/projects/"+f.ws.ProjectID+"/eval-runs", f.ws.APIKey, body).wantField(t, "runGroupId")
}
