package projectopstest

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest/internal/rows"

	"github.com/projectops/projectops-go/ingest"
)

// ingestStore is what eval-ingest keeps beside the eval runs it creates
// (which live in evalStore.runs): the index by externalRunId, upload URLs
// and uploaded artifacts. Its zero value is ready; it is only touched with
// Server.mu held.
type ingestStore struct {
	byExt     map[string]*evalRunRec // by projectID + "\x00" + externalRunId
	uploads   map[string]*uploadRec  // by token
	artifacts map[string]*artifactRec
	discard   bool      // WithIngestDiscard: keep counts, not rows
	bounded   bool      // WithMaxRuns: unnamed artifacts lapse (ArtifactTTL)
	nextSweep time.Time // when sweepIngestLocked next walks uploads and artifacts
	// unnamed holds, when bounded, the artifacts in upload order that no
	// run named at upload: the only ones that can lapse. Entries hold the
	// id, not the record, so a released artifact's data is not kept.
	unnamed []unnamedArtifact
}

// unnamedArtifact is an entry of ingestStore.unnamed.
type unnamedArtifact struct {
	id        string
	createdAt time.Time
}

// runExternal is what an ingested run holds beyond evalRunRec: the run as
// started (externalRunId, framework, CI metadata, tags, server names,
// expected iterations, suite description) and the externalIterationIds it
// already holds.
type runExternal struct {
	params     ingest.RunParams
	configHash string      // evaluationConfigHash as started; a reuse must match it
	rows       *rows.Store // the received results, compressed
	// blobs are the artifacts the run names, through its stored results
	// (widgetHtmlBlobId) or its notes (by id), each counted once in its
	// artifactRec.refs, released with the run.
	blobs map[string]struct{}
}

// uploadRec is a minted upload URL: usable once, until expires. The
// record is kept for another UploadURLTTL after that, so a used or
// expired URL answers 403, then forgotten (404).
type uploadRec struct {
	projectID string
	expires   time.Time
	used      bool
}

// artifactRec is an uploaded artifact; refs counts the stored runs whose
// results or notes name it. Under WithMaxRuns, one no run names lapses ArtifactTTL
// after createdAt.
type artifactRec struct {
	id, projectID, contentType string
	data                       []byte
	createdAt                  time.Time
	refs                       int
}

// IngestedRun is an eval run created through eval-ingest, as the double
// holds it. It is a test hook: see Server.IngestedRuns.
type IngestedRun struct {
	ID, ProjectID, SuiteID, SuiteName, ExternalRunID string
	// Source is "sdk" for ingested runs.
	Source      string
	RunNumber   int
	Status      string // running, completed or failed; cancelled when cancelled through the eval routes
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
	// Input is the result as received, in the SDK's type: a token count
	// ingest.Tokens cannot hold (one with a fraction, or a whole one past
	// int64) is 0 here and in Raw as sent. (A server built with WithIngestDiscard keeps no
	// iterations.)
	Input ingest.Result
	// Raw is the result as received, every field the reference documents
	// included (widgetSnapshots, advancedConfig, matchOptions, ...).
	Raw json.RawMessage
}

// IngestedRuns returns the ingested runs of a project (every project when
// projectID is ""), oldest first. It is a test hook for inspecting what a
// reporter sent.
func (s *Server) IngestedRuns(projectID string) []IngestedRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []IngestedRun
	for _, r := range sortedByOrd(s.st.evals.runs, func(r *evalRunRec) int { return r.ord },
		func(r *evalRunRec) bool { return r.ext != nil && (projectID == "" || r.projectID == projectID) }) {
		out = append(out, s.st.ingestedRun(r))
	}
	return out
}

// IngestedIterations returns a run's iterations in arrival order, and false
// when there is no such run. It is a test hook.
func (s *Server) IngestedIterations(runID string) ([]IngestedIteration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.st.evals.runs[runID]
	if r == nil || r.ext == nil {
		return nil, false
	}
	out := make([]IngestedIteration, 0, r.ext.rows.Len())
	for i := range r.ext.rows.Len() {
		raw, received, passed := r.ext.rows.At(i)
		v := IngestedIteration{ID: ingestedIterID(r.id, i+1), IterationNumber: i + 1,
			Status: string(evals.StatusCompleted), Result: string(evals.ResultFailed),
			CreatedAt: received, Raw: slices.Clone(raw)}
		if passed {
			v.Result = string(evals.ResultPassed)
		}
		v.Input = rowAsResult(raw)
		out = append(out, v)
	}
	return out, true
}

// Artifact returns an artifact uploaded through a minted upload URL, while
// the double keeps it (see ArtifactTTL and WithMaxRuns). It is a test hook.
func (s *Server) Artifact(storageID string) (data []byte, contentType string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.st.liveArtifact(storageID)
	if a == nil {
		return nil, "", false
	}
	return slices.Clone(a.data), a.contentType, true
}

func (st *state) ingestedRun(r *evalRunRec) IngestedRun {
	v := IngestedRun{ID: r.id, ProjectID: r.projectID, SuiteID: r.suiteID, ExternalRunID: r.ext.params.ExternalRunID,
		Source: r.source, RunNumber: r.runNumber, Status: string(r.status), Result: ingestResult(r),
		Summary: ingest.Summary(r.summary()), Params: r.ext.params, CreatedAt: r.createdAt, CompletedAt: r.completedAt}
	if su := st.suites[r.suiteID]; su != nil {
		v.SuiteName = su.name
	}
	v.Params.ServerNames = slices.Clone(r.ext.params.ServerNames)
	v.Params.Tags = slices.Clone(r.ext.params.Tags)
	return v
}

// WithIngestDiscard makes the server keep only the counts of ingested
// iterations, not the rows: appends are validated and counted (every
// result counts as inserted, as nothing is kept to deduplicate against)
// and finalize computes the summary from the counts. As no run keeps a
// result, none holds the artifacts its results name: under WithMaxRuns
// they lapse ArtifactTTL after their upload, as unnamed ones do. It is meant for
// benchmarks of very long streams, where the double's own store would
// otherwise dominate the process's memory.
func WithIngestDiscard() Option {
	return func(o *options) error {
		o.ingestDiscard = true
		return nil
	}
}
