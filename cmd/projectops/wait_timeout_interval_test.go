package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// A --wait-timeout shorter than the poll interval ends the wait early
// (Wait returns context.DeadlineExceeded once its next poll would come
// after the deadline, while the context has not ended yet): the command
// still says it stopped waiting after --wait-timeout and that the run
// goes on, never a bare "context deadline exceeded".
func TestEvalRunWaitTimeoutShorterThanInterval(t *testing.T) {
	release := make(chan struct{})
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0),
		projectopstest.WithEvalHooks(projectopstest.EvalHooks{BeforeIteration: func(ctx context.Context, _, _ string) error {
			select {
			case <-release:
			case <-ctx.Done():
			}
			return nil
		}}))
	t.Cleanup(func() { close(release) })
	base, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	ws := srv.Default()
	demoID, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "demo", MCPServer: projectopstest.DemoMCPServer()})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PROJECTOPS_API_KEY", ws.APIKey)
	t.Setenv("PROJECTOPS_BASE_URL", base)
	t.Setenv("PROJECTOPS_PROJECT", ws.ProjectID)
	file := writeTests(t, evals.RunParams{SuiteName: "slow", ServerIDs: []string{demoID}, Tests: []evals.Test{{
		Title: "echo", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "Use echo with message=hi")}}}})
	code, _, errOut := evalCLI(t, "run", "--file", file, "--wait", "--interval", "60s", "--wait-timeout", "5s")
	if code != 2 || !strings.Contains(errOut, "stopped waiting after --wait-timeout 5s") || !strings.Contains(errOut, "continues") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

func TestEnvBuildWaitTimeoutShorterThanInterval(t *testing.T) {
	_, _ = envServer(t, projectopstest.WithBuildStepDelay(time.Minute))
	df := filepath.Join(t.TempDir(), "Dockerfile")
	if err := os.WriteFile(df, []byte("FROM python:3.13-slim@sha256:cf1b6e9cc15cc669d1c096bf5918d3acfa4808bfa16bfd5176ccae1864d93e2d\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := env(t, "create", "--name", "slow", "--file", df, "--json")
	var created environments.Environment
	if code != 0 || json.Unmarshal([]byte(out), &created) != nil {
		t.Fatalf("create: %d %q %q", code, out, errOut)
	}
	code, _, errOut = env(t, "build", "--interval", "60s", "--wait-timeout", "5s", created.ID)
	if code != 2 || !strings.Contains(errOut, "stopped waiting after --wait-timeout 5s") || !strings.Contains(errOut, "continues") {
		t.Errorf("build past --wait-timeout: %d %q", code, errOut)
	}
}
