package projectopstest

import (
	"strconv"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/shared"
)

// ReasonRunDropped is details.reason of the 404 NOT_FOUND answering a read
// of a run dropped under WithMaxRuns (a double-only value: the service
// keeps every run).
const ReasonRunDropped shared.Reason = "RUN_DROPPED"

// WithMaxRuns bounds the memory of a long session (projectops serve
// --max-runs): once more than n eval runs are stored, the oldest finished
// ones are dropped with their iterations, traces and ids, executed and
// ingested alike; runs in flight are never dropped. An uploaded artifact
// goes with the last stored run naming it (in a result's widget snapshot,
// or by id in the run's notes), and one no run names lapses after
// ArtifactTTL. Reading a dropped run,
// its iterations, a trace or steps answers 404 NOT_FOUND with
// details.reason RUN_DROPPED; its suite's totals and trend no longer count
// it, and a runs/start reusing its externalRunId starts a new run. 0, the
// default, keeps every run and every artifact.
func WithMaxRuns(n int) Option {
	return checked("WithMaxRuns", n >= 0, "n must not be negative", func(o *options) { o.evals.maxRuns = n })
}

// trimRunsLocked drops the oldest finished runs while more than the cap
// are stored. Call with Server.mu held, after storing a new run.
func (e *evalEngine) trimRunsLocked() {
	s := e.s
	limit := e.opts.maxRuns
	runs := s.st.evals.runs
	if limit == 0 || len(runs) <= limit {
		return
	}
	done := sortedByOrd(runs, func(r *evalRunRec) int { return r.ord }, func(r *evalRunRec) bool { return r.terminal() })
	for _, r := range done[:min(len(done), len(runs)-limit)] {
		e.dropRunLocked(r)
	}
}

// dropRunLocked forgets a finished run and everything it names, keeping
// only its id and project so a later read gets the documented answer.
func (e *evalEngine) dropRunLocked(r *evalRunRec) {
	s := e.s
	delete(s.st.evals.runs, r.id)
	for _, it := range r.iters {
		delete(s.st.ids, it.id)
	}
	if r.ext != nil {
		delete(s.st.ingest.byExt, r.projectID+"\x00"+r.ext.params.ExternalRunID)
		s.st.releaseRunArtifacts(r)
	}
	for k, id := range s.st.evals.idem {
		if id == r.id {
			delete(s.st.evals.idem, k)
		}
	}
	if e.dropped == nil {
		e.dropped = map[string]string{}
	}
	e.dropped[r.id] = r.projectID
}

// droppedRunError is the answer to a read of a dropped run of projectID,
// or nil when runID names no dropped run of it.
func (e *evalEngine) droppedRunError(projectID, runID string) *edge.Error {
	if p, ok := e.dropped[runID]; !ok || p != projectID {
		return nil
	}
	return edge.NewError(shared.CodeNotFound, "Eval run "+runID+" was dropped: the double keeps only the newest runs (max runs "+
		strconv.Itoa(e.opts.maxRuns)+")", map[string]any{"reason": string(ReasonRunDropped), "runId": runID})
}
