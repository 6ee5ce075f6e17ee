// Package evals authors eval suites and runs them: a suite holds test
// cases made of ordered steps (prompt, toolCall, interact, assert) against a
// project's saved MCP servers. Creating a run answers 202 at once; the run
// executes in the background and is observed by polling (Runs.Get, or
// Runs.Wait, which polls with backoff until the run is terminal), then read
// through its iterations, their step verdicts and traces.
//
// Run creation carries an Idempotency-Key generated once per call and
// reused on every retry, so a retried create never starts a second run.
// Errors worth acting on: a model the service cannot run is a
// VALIDATION_ERROR whose HostedModels lists valid hosted ids; a rerun of a
// suite without servers is projectops.ErrNoSavedServerSelection; too many
// runs in flight is projectops.ErrConcurrentRunLimit (429, not retried by
// the SDK); a missing trace is projectops.ErrTraceNotAvailable; cancelling
// a finished run is 409 CONFLICT (projectops.ErrConflict). The sentinels
// live in the root package (and in shared, which it re-exports).
package evals

import (
	"github.com/projectops/projectops-go/internal/svc"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/option"
)

// Service is the evals API. Use Client.Evals. In a zero Service, Suites
// and Runs are nil, and their methods fail with a VALIDATION_ERROR
// ("unconfigured client"), as every zero service's do.
type Service struct {
	// Suites authors and lists eval suites.
	Suites *SuiteService
	// Runs creates, polls, inspects and cancels eval runs.
	Runs *RunService
}

func init() { svc.Register(newService) }

// NewService builds the evals service alone, from the options of
// projectops.NewClient: a program using only it links no other service.
func NewService(opts ...option.RequestOption) (*Service, error) {
	return svc.Standalone(opts, newService)
}

func newService(t *transport.Transport) *Service {
	return &Service{Suites: &SuiteService{t: t}, Runs: &RunService{t: t}}
}

const (
	routeSuites     = "/projects/{projectId}/eval-suites"
	routeSuiteRuns  = "/projects/{projectId}/eval-suites/{suiteId}/runs"
	routeRuns       = "/projects/{projectId}/eval-runs"
	routeRun        = "/projects/{projectId}/eval-runs/{runId}"
	routeRunCancel  = "/projects/{projectId}/eval-runs/{runId}/cancel"
	routeIterations = "/projects/{projectId}/eval-runs/{runId}/iterations"
	routeTrace      = "/projects/{projectId}/eval-runs/{runId}/iterations/{iterationId}/trace"
	routeSteps      = "/projects/{projectId}/eval-runs/{runId}/iterations/{iterationId}/steps"
)
