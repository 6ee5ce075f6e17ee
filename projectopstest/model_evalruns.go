package projectopstest

import (
	"maps"
	"slices"
	"time"

	"github.com/projectops/projectops-go/ingest"
)

// ingestStore holds eval runs created through eval-ingest, their
// iterations, upload URLs and uploaded artifacts. Its zero value is ready;
// it is only touched with Server.mu held. The eval-run routes serve these
// runs too (source "sdk"), so the records mirror the reference EvalRun and
// EvalIteration shapes.
type ingestStore struct {
	runs      map[string]*evalRunRec // by run id
	byExt     map[string]*evalRunRec // by projectID + "\x00" + externalRunId
	uploads   map[string]*uploadRec  // by token
	artifacts map[string]*artifactRec
	discard   bool // WithIngestDiscard: keep counts, not rows
}

// evalRunRec is an eval run. Runs created by ingestion have source "sdk".
type evalRunRec struct {
	id, projectID, suiteID, externalRunID string
	source                                string
	runNumber                             int
	status, result                        string // EvalRun status and result
	params                                ingest.RunParams
	createdAt, completedAt                time.Time
	ord                                   int

	iters          []*evalIterRec
	seen           map[string]bool // externalIterationIds present
	passed, failed int             // counted as rows arrive
}

// evalIterRec is one iteration of a run. res is nil when the server keeps
// counts only (WithIngestDiscard).
type evalIterRec struct {
	id        string
	number    int
	passed    bool
	res       *ingest.Result
	createdAt time.Time
}

// uploadRec is a minted upload URL: usable once, until expires.
type uploadRec struct {
	projectID string
	expires   time.Time
	used      bool
}

type artifactRec struct {
	id, projectID, contentType string
	data                       []byte
	createdAt                  time.Time
}

// finalized reports whether the run reached a terminal status.
func (r *evalRunRec) finalized() bool { return r.status != ingest.StatusRunning }

// summary counts the run's rows; PassRate is 0 for an empty run.
func (r *evalRunRec) summary() ingest.Summary {
	s := ingest.Summary{Total: r.passed + r.failed, Passed: r.passed, Failed: r.failed}
	if s.Total > 0 {
		s.PassRate = float64(s.Passed) / float64(s.Total)
	}
	return s
}

// IngestedRun is an eval run created through eval-ingest, as the double
// holds it. It is a test hook: see Server.IngestedRuns.
type IngestedRun struct {
	ID, ProjectID, SuiteID, SuiteName, ExternalRunID string
	// Source is "sdk" for ingested runs.
	Source      string
	RunNumber   int
	Status      string // running, completed or failed
	Result      string // pending, passed or failed
	Summary     ingest.Summary
	Params      ingest.RunParams
	CreatedAt   time.Time
	CompletedAt time.Time // zero until finalized
}

// IngestedIteration is one stored iteration of an ingested run.
type IngestedIteration struct {
	ID              string
	IterationNumber int
	Status          string // always completed: ingested results are finished
	Result          string // passed or failed
	CreatedAt       time.Time
	// Input is the result as received (zero when the server was built with
	// WithIngestDiscard).
	Input ingest.Result
}

// IngestedRuns returns the ingested runs of a project (every project when
// projectID is ""), oldest first. It is a test hook for inspecting what a
// reporter sent.
func (s *Server) IngestedRuns(projectID string) []IngestedRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []IngestedRun
	for _, r := range sortedByOrd(s.st.ingest.runs, func(r *evalRunRec) int { return r.ord },
		func(r *evalRunRec) bool { return projectID == "" || r.projectID == projectID }) {
		out = append(out, s.ingestedRunLocked(r))
	}
	return out
}

// IngestedIterations returns a run's iterations in arrival order, and false
// when there is no such run. It is a test hook.
func (s *Server) IngestedIterations(runID string) ([]IngestedIteration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.st.ingest.runs[runID]
	if r == nil {
		return nil, false
	}
	out := make([]IngestedIteration, 0, len(r.iters))
	for _, it := range r.iters {
		v := IngestedIteration{ID: it.id, IterationNumber: it.number, Status: ingest.StatusCompleted,
			Result: ingest.ResultFailed, CreatedAt: it.createdAt}
		if it.passed {
			v.Result = ingest.ResultPassed
		}
		if it.res != nil {
			v.Input = *it.res
			v.Input.ExpectedToolCalls = slices.Clone(it.res.ExpectedToolCalls)
			v.Input.ActualToolCalls = slices.Clone(it.res.ActualToolCalls)
			v.Input.Metadata = maps.Clone(it.res.Metadata)
			v.Input.ErrorDetails = maps.Clone(it.res.ErrorDetails)
		}
		out = append(out, v)
	}
	return out, true
}

// Artifact returns an artifact uploaded through a minted upload URL. It is
// a test hook.
func (s *Server) Artifact(storageID string) (data []byte, contentType string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.st.ingest.artifacts[storageID]
	if a == nil {
		return nil, "", false
	}
	return slices.Clone(a.data), a.contentType, true
}

func (s *Server) ingestedRunLocked(r *evalRunRec) IngestedRun {
	v := IngestedRun{ID: r.id, ProjectID: r.projectID, SuiteID: r.suiteID, ExternalRunID: r.externalRunID,
		Source: r.source, RunNumber: r.runNumber, Status: r.status, Result: r.result, Summary: r.summary(),
		Params: r.params, CreatedAt: r.createdAt, CompletedAt: r.completedAt}
	if su := s.st.suites[r.suiteID]; su != nil {
		v.SuiteName = su.name
	}
	v.Params.ServerNames = slices.Clone(r.params.ServerNames)
	v.Params.Tags = slices.Clone(r.params.Tags)
	return v
}

// WithIngestDiscard makes the server keep only the counts of ingested
// iterations, not the rows: appends are validated and counted (every
// result counts as inserted, as nothing is kept to deduplicate against)
// and finalize computes the summary from the counts. It is meant for
// benchmarks of very long streams, where the double's own store would
// otherwise dominate the process's memory.
func WithIngestDiscard() Option {
	return func(o *options) error {
		o.ingestDiscard = true
		return nil
	}
}
