package evals_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/internal/sdktest"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/option"
)

// TestRunsCreateErrorEchoRedacted: model API keys a service quotes back
// from the request body in its error never reach the SDK's error.
func TestRunsCreateErrorEchoRedacted(t *testing.T) {
	t.Parallel()
	svc, err := evals.NewService(option.WithoutEnvironment(), option.WithAPIKey("sk_x"), option.WithBaseURL(sdktest.EchoBodyServer(t)), option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = svc.Runs.Create(t.Context(), "prj_1", evals.RunParams{SuiteName: "s",
		ModelAPIKeys: evals.ModelAPIKeys{"openai": "SEKRIT-OAI", "anthropic": `SEKRIT<"&>`}})
	if err == nil {
		t.Fatal("no error")
	}
	for _, s := range []string{err.Error(), fmt.Sprintf("%#v", err)} {
		if strings.Contains(s, "SEKRIT") {
			t.Errorf("error shows a model API key: %.500s", s)
		}
	}
}
