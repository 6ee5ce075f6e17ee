package projectopstest

import (
	"context"
	"time"

	"github.com/projectops/projectops-go/evals"
)

// suiteDef is what an eval suite authored through the API (or seeded with
// tests) holds beyond evalSuiteRec: its test cases and defaults.
type suiteDef struct {
	description  string
	serverNames  []string
	model        string
	provider     string
	passCriteria *evals.PassCriteria
	cases        []*caseRec
}

// caseRec is a stored test case. The test is never mutated once stored: an
// upsert replaces the pointer.
type caseRec struct {
	id   string
	test evals.Test
}

// evalStore holds eval runs and the idempotency keys of run creation. Only
// touched with Server.mu held.
type evalStore struct {
	runs map[string]*evalRunRec
	// idem maps userID + projectID + Idempotency-Key to the run it created.
	idem map[string]string
}

// evalRunRec is an eval run. Runs created through the API have source
// "api" and are executed by the engine (exec is set); their iterations are
// planned when the run is created. Runs received through eval-ingest
// (source "sdk", branch issue5) are meant to be this same record, stored in
// evalStore.runs as well so the eval routes serve them: their status and
// result use the same strings, passed/failed are counted as rows arrive,
// and an ingested iteration keeps its received result for iterView. The
// concurrency cap counts only engine runs (exec != nil).
type evalRunRec struct {
	id, projectID, orgID, suiteID string
	source                        string
	runNumber                     int
	status                        evals.Status
	result                        evals.Result
	notes                         string
	passCriteria                  *evals.PassCriteria
	servers                       []evals.ServerRef
	createdAt, completedAt        time.Time
	ord                           int

	iters          []*evalIterRec
	passed, failed int // finished iterations by result

	exec     *runExec           // nil once the run is terminal, or for ingested runs
	cancelFn context.CancelFunc // ends the run's context (engine runs)
}

// runExec is what the engine needs to execute a run. modelKeys is a secret.
type runExec struct {
	userID    string
	modelKeys map[string]Secret
}

// evalIterRec is one iteration. Fields written by the engine are written
// under Server.mu once the iteration finishes; views copy them.
type evalIterRec struct {
	id       string
	number   int
	caseID   string
	test     evals.Test // with model, provider and runs resolved
	status   evals.Status
	result   evals.Result
	expected []evals.ToolCall

	startedAt time.Time
	duration  time.Duration
	usage     *evals.Usage
	actual    []evals.ToolCall
	errText   string
	steps     []evals.StepResult
	trace     *evals.Trace // nil: finished without a stored trace
}

// terminal reports whether the run has finished.
func (r *evalRunRec) terminal() bool { return r.status.Terminal() }

// summary counts the run's iterations: Total is the number planned (or
// received, for runs whose rows are counted without being kept).
func (r *evalRunRec) summary() evals.Summary {
	s := evals.Summary{Total: max(len(r.iters), r.passed+r.failed), Passed: r.passed, Failed: r.failed}
	if done := r.passed + r.failed; done > 0 {
		s.PassRate = float64(r.passed) / float64(done)
	}
	return s
}
