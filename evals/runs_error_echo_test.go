package evals_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/option"
)

// TestRunsCreateErrorEchoRedacted: model API keys a service quotes back
// from the request body in its error never reach the SDK's error.
func TestRunsCreateErrorEchoRedacted(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var decoded any
		_ = json.Unmarshal(body, &decoded)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		_ = json.NewEncoder(w).Encode(map[string]any{"code": "VALIDATION_ERROR", "message": "invalid body " + string(body),
			"details": map[string]any{"body": decoded}})
	}))
	defer srv.Close()
	svc, err := evals.NewService(option.WithoutEnvironment(), option.WithAPIKey("sk_x"), option.WithBaseURL(srv.URL+"/api/v1"), option.WithMaxRetries(0))
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
