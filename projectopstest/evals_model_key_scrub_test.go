package projectopstest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// A run's modelApiKeys entry, or the organization's stored key, is handed
// to the Model; a provider that refuses a key often quotes it back in its
// error. The iteration's error, which API responses carry, has it taken
// out, as a failing MCP server's secrets are.
func TestModelErrorQuotingRunModelKeyIsScrubbed(t *testing.T) {
	t.Parallel()
	for _, org := range []bool{false, true} {
		modelKeyScrubbed(t, org)
	}
}

func modelKeyScrubbed(t *testing.T, org bool) {
	const key = "sk-ant-LEAKCANARY1234567890abcdef"
	model := projectopstest.ModelFunc(func(ctx context.Context, req projectopstest.ModelRequest) (*projectopstest.ModelResponse, error) {
		// What a provider SDK's "invalid key" error commonly looks like.
		return nil, fmt.Errorf("401 Unauthorized: invalid x-api-key %q", string(req.APIKey))
	})
	f := newEvalFix(t, projectopstest.WithEvalModel(model))
	tt := echoTest("native", "x")
	tt.Model, tt.Provider = "claude-haiku-4-5", "anthropic"
	p := evals.RunParams{Tests: []evals.Test{tt}, ModelAPIKeys: evals.ModelAPIKeys{"anthropic": key}}
	if org {
		if err := f.srv.SetOrganizationModelKey(f.ws.OrganizationID, "anthropic", key); err != nil {
			t.Fatal(err)
		}
		p.ModelAPIKeys = nil
	}
	rc := f.create(t, p)
	run := f.awaitRun(t, rc.RunID)
	if b, _ := json.Marshal(run); strings.Contains(string(b), key) {
		t.Errorf("the run holds the run's model API key: %s", b)
	}
	its := f.iterations(t, rc.RunID)
	if len(its) == 0 {
		t.Fatal("no iteration")
	}
	for _, it := range its {
		if strings.Contains(it.Error, key) {
			t.Errorf("iteration error quotes the run's model API key: %s", strings.ReplaceAll(it.Error, key, "<KEY>"))
		}
		if b, _ := json.Marshal(it); strings.Contains(string(b), key) {
			t.Errorf("iteration (API response) holds the run's model API key")
		}
	}
}
