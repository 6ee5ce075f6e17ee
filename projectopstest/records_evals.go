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
	// idem maps userID + projectID + Idempotency-Key + suite (its id, or
	// the name it was created by) to the run it created.
	idem map[string]string
	// suiteIdem maps userID + projectID + Idempotency-Key to the suite
	// the creation that carried it authored.
	suiteIdem map[string]string
}

// evalRunRec is an eval run, whichever way it was created. Runs created
// through the API have source "api" and are executed by the engine (exec
// is set while they are in flight); their iterations are planned when the
// run is created. Runs received through eval-ingest have source "sdk" and
// ext set; they start running, gain one finished iteration per received
// row (passed/failed counted as rows arrive) and end when finalized. Both
// live in evalStore.runs, so the eval routes, suite listings and totals
// serve them alike. The concurrency cap counts only engine runs (exec !=
// nil).
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
	runCtx   context.Context    // the run's context, to see its deadline pass (engine runs)
	ext      *runExternal       // ingested runs only (records_evalruns.go)
	// threw records, under Server.mu, that a server's tools could not be
	// listed (not the deadline cutting the listing short): the executor
	// settles such a run failed, and a cancel in the deadline window must
	// settle it as the executor would.
	threw bool
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
	// tokensUsed, set only without usage, is the exact sum of an ingested
	// row's fractional counts, which usage's ints cannot hold.
	tokensUsed *float64
	actual     []evals.ToolCall
	errText    string
	steps      []evals.StepResult
	trace      *evals.Trace // nil: finished without a stored trace

	receivedAt time.Time // ingested iterations: when the row arrived
	// in is the row as received, for ingested iterations (nil for engine
	// iterations); the fields above hold its view, except the trace, which
	// is converted when read (traceOf).
	in *ingestedRow
}

// terminal reports whether the run has finished.
func (r *evalRunRec) terminal() bool { return r.status.Terminal() }

// summary counts the run's iterations: Total is the number planned (or
// received, for runs whose rows are counted without being kept).
func (r *evalRunRec) summary() evals.Summary {
	s := evals.Summary{Total: max(r.iterCount(), r.passed+r.failed), Passed: r.passed, Failed: r.failed}
	if done := r.passed + r.failed; done > 0 {
		s.PassRate = float64(r.passed) / float64(done)
	}
	return s
}

// nextRunNumberLocked numbers a new run of suiteID: one more than the
// suite's last, never reused after old runs are dropped (WithMaxRuns), as
// the service, which keeps every run, never reuses one.
func (st *state) nextRunNumberLocked(suiteID string) int {
	su := st.suites[suiteID]
	if su == nil {
		return 1
	}
	for _, r := range st.evals.runs { // runs stored before the suite counted (a seed)
		if r.suiteID == suiteID {
			su.lastRun = max(su.lastRun, r.runNumber)
		}
	}
	su.lastRun++
	return su.lastRun
}
