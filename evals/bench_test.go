package evals_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// BenchmarkRun runs a 100-test × 3-run suite against an in-process MCP
// server (the demo server), created and waited on through the SDK. It
// reports iterations per second, allocations per iteration (SDK, double
// and go-sdk together) and the polls Wait needed per run, with the
// default polling bounds and with a 5ms floor.
func BenchmarkRun(b *testing.B) {
	for _, bc := range []struct {
		name string
		poll []evals.WaitOption
	}{
		{"poll=default", nil},
		{"poll=5ms", []evals.WaitOption{evals.WithPollInterval(5*time.Millisecond, evals.DefaultPollMax)}},
	} {
		b.Run(bc.name, func(b *testing.B) { benchRun(b, bc.poll) })
	}
}

func benchRun(b *testing.B, poll []evals.WaitOption) {
	srv := projectopstest.NewTestServer(b, projectopstest.WithRateLimit(0, 0))
	projectID := srv.Default().ProjectID
	serverID, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: projectID, Name: "demo", MCPServer: projectopstest.DemoMCPServer()})
	if err != nil {
		b.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	tests := make([]evals.Test, 100)
	for i := range tests {
		msg := fmt.Sprintf("m%d", i)
		tests[i] = evals.Test{Title: "echo " + msg, Runs: 3, Steps: []evals.Step{
			evals.PromptStep("ask", "Call echo with message="+msg),
			evals.AssertCalledWith("check", "echo", map[string]any{"message": msg}),
		}}
	}
	suite, err := c.Evals.Suites.Create(ctx, projectID, evals.CreateSuiteParams{Name: "bench",
		ServerIDs: []string{serverID}, Model: "openai/gpt-4o-mini", Tests: tests})
	if err != nil {
		b.Fatal(err)
	}
	const perRun = 300
	pollRoute := "GET /projects/{projectId}/eval-runs/{runId}"
	srv.ResetRequests()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		rc, err := c.Evals.Runs.Create(ctx, projectID, evals.RunParams{SuiteID: suite.SuiteID})
		if err != nil {
			b.Fatal(err)
		}
		run, err := c.Evals.Runs.Wait(ctx, projectID, rc.RunID, poll...)
		if err != nil || !run.Passed() || run.Summary.Total != perRun {
			b.Fatalf("run = %+v, %v", run, err)
		}
	}
	elapsed := time.Since(start)
	b.StopTimer()
	runtime.ReadMemStats(&ms1)
	polls := 0
	for _, r := range srv.Requests() {
		if r.Route == pollRoute {
			polls++
		}
	}
	iters := float64(b.N * perRun)
	b.ReportMetric(iters/elapsed.Seconds(), "iterations/s")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/iters, "allocs/iteration")
	b.ReportMetric(float64(polls)/float64(b.N), "polls/run")
}
