package projectopstest

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest/internal/rows"
	"github.com/projectops/projectops-go/shared"
)

// uploadPath is where, under the API prefix, the double serves the upload
// URLs it mints.
const uploadPath = "/eval-ingest-uploads/"

// UploadURLTTL is how long an upload URL the double mints stays valid. The
// double serves such a URL itself, under its base URL
// (…/api/v1/eval-ingest-uploads/<token>), without a key, and accepts one
// upload to it. Once used or expired it answers 403, until twice
// UploadURLTTL after it was minted; from then on 404, as an unknown URL:
// the double forgets it, so minting stays bounded.
const UploadURLTTL = 5 * time.Minute

// startIngestedRunLocked creates the run named by p.ExternalRunID in the
// project, or returns the existing one (reused). The suite is found or
// created by name. The run joins the eval runs (source "sdk"), but it is
// not executed and does not count against the concurrency cap. The caller
// applies WithMaxRuns (trimRunsLocked) once the run holds its artifacts.
func (s *Server) startIngestedRunLocked(a actor, projectPath string, p ingest.RunParams, hash string) (*evalRunRec, bool, *edge.Error) {
	projectID, run, herr := s.reusedIngestedRunLocked(a, projectPath, p, hash)
	if herr != nil || run != nil {
		return run, run != nil, herr
	}
	run, herr = s.newIngestedRunLocked(projectID, p, hash)
	return run, false, herr
}

// reusedIngestedRunLocked resolves the project and the run p.ExternalRunID
// already names there (nil when there is none), refusing a reuse that
// describes another evaluation. It changes nothing, so a caller can check
// the rest of a body before newIngestedRunLocked stores anything.
func (s *Server) reusedIngestedRunLocked(a actor, projectPath string, p ingest.RunParams, hash string) (string, *evalRunRec, *edge.Error) {
	projectID, herr := s.st.ingestProject(a, projectPath)
	if herr != nil {
		return "", nil, herr
	}
	run := s.st.ingest.byExt[projectID+"\x00"+p.ExternalRunID]
	if run != nil && hash != "" && run.ext.configHash != "" && hash != run.ext.configHash {
		// A reused externalRunId must describe the same evaluation.
		return "", nil, edge.NewError(shared.CodeConflict,
			"externalRunId was already used with a different evaluationConfigHash",
			map[string]any{"field": "evaluationConfigHash", "runId": run.id})
	}
	return projectID, run, nil
}

// newIngestedRunLocked stores a new running run for p in the project,
// finding or creating its suite by name.
func (s *Server) newIngestedRunLocked(projectID string, p ingest.RunParams, hash string) (*evalRunRec, *edge.Error) {
	st := &s.st.ingest
	key := projectID + "\x00" + p.ExternalRunID
	suiteID, err := s.suiteByNameLocked(projectID, p.SuiteName, p.SuiteDescription)
	if err != nil {
		return nil, edge.Internal()
	}
	id, err := s.st.newID("run", "")
	if err != nil {
		return nil, edge.Internal()
	}
	if st.byExt == nil {
		st.byExt = map[string]*evalRunRec{}
	}
	n := s.st.nextRunNumberLocked(suiteID)
	p.ServerNames = slices.Clone(p.ServerNames)
	p.Tags = slices.Clone(p.Tags)
	run := &evalRunRec{id: id, projectID: projectID, orgID: s.st.projects[projectID].orgID, suiteID: suiteID,
		source: evals.SourceSDK, runNumber: n, status: evals.StatusRunning, notes: p.Notes,
		createdAt: s.now(), ord: s.st.nextOrd(), ext: &runExternal{params: p, configHash: hash, rows: rows.NewStore(st.discard)}}
	if p.PassCriteria != nil {
		run.passCriteria = &evals.PassCriteria{MinimumPassRate: p.PassCriteria.MinimumPassRate}
	}
	s.st.evals.runs[id], st.byExt[key] = run, run
	s.st.holdArtifacts(run, s.st.notedArtifacts(projectID, p.Notes))
	return run, nil
}

// suiteByNameLocked returns the project's suite called name, creating it
// (with description) when there is none.
func (s *Server) suiteByNameLocked(projectID, name, description string) (string, error) {
	for _, su := range sortedByOrd(s.st.suites, func(v *evalSuiteRec) int { return v.ord },
		func(v *evalSuiteRec) bool { return v.projectID == projectID && v.name == name }) {
		return su.id, nil
	}
	id, err := s.addEvalSuiteLocked(EvalSuiteSpec{ProjectID: projectID, Name: name})
	if err == nil {
		s.st.suites[id].def = &suiteDef{description: description}
	}
	return id, err
}

// findIngestedRunLocked resolves an ingested run of the project; another
// project's run, or a run created through the API, reads as 404.
func (s *Server) findIngestedRunLocked(a actor, projectPath, runID string) (*evalRunRec, *edge.Error) {
	projectID, herr := s.st.ingestProject(a, projectPath)
	if herr != nil {
		return nil, herr
	}
	run := s.st.evals.runs[runID]
	if run == nil || run.ext == nil || run.projectID != projectID {
		if herr := s.ev.droppedRunError(projectID, runID); herr != nil {
			return nil, herr
		}
		return nil, notFoundIn("Run")
	}
	return run, nil
}

// finalizeIngested ends an ingested run: an empty run, or one with
// fewer rows than expectedIterations, fails; otherwise it is completed and
// passes when its pass rate reaches the pass criteria's minimum (100% by
// default), as an engine run does (endRun).
func (st *state) finalizeIngested(run *evalRunRec) {
	sum := run.summary()
	status := evals.StatusCompleted
	if sum.Total == 0 || sum.Total < run.ext.params.ExpectedIterations {
		status = evals.StatusFailed
	}
	st.endRun(run, status)
}

// ingestResult is the run's result as eval-ingest answers it: pending
// until the run is terminal.
func ingestResult(run *evalRunRec) string {
	if !run.terminal() {
		return ingest.ResultPending
	}
	return string(run.result)
}

func (st *state) runResult(run *evalRunRec, reused bool) ingest.RunResult {
	sum := ingest.Summary(run.summary())
	return ingest.RunResult{OK: true, SuiteID: run.suiteID, RunID: run.id, ProjectID: run.projectID,
		Reused: reused, Status: string(run.status), Result: ingestResult(run), Summary: &sum}
}

// ingestUploadURL mints a single-use upload URL served by this double.
func ingestUploadURL(s *Server, w http.ResponseWriter, r *http.Request, a actor) *edge.Error {
	if herr := s.checkIngestAccess(r, a); herr != nil {
		return herr
	}
	if _, _, herr := decodeIngest(r); herr != nil {
		return herr
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	if herr := s.mintUpload(a, r.PathValue("projectId"), token); herr != nil {
		return herr
	}
	edge.WriteJSON(w, http.StatusOK, ingest.UploadURL{OK: true, UploadURL: requestBase(r) + uploadPath + token})
	return nil
}

// ingestUpload stores the raw body sent to a minted URL. No key is needed:
// the URL is the capability, so it is checked (and claimed) before a byte
// of the body is read: a made-up URL costs no memory.
func ingestUpload(s *Server, w http.ResponseWriter, r *http.Request, _ actor) *edge.Error {
	up, herr := s.claimUpload(r.PathValue("token"))
	if herr != nil {
		return herr
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, ingest.MaxArtifactBytes+1))
	if err == nil && len(data) > ingest.MaxArtifactBytes {
		herr = edge.NewError(shared.CodeValidation, "Artifact exceeds the upload size limit",
			map[string]any{"limit": ingest.MaxArtifactBytes})
	} else if err != nil {
		herr = edge.Validation("", "Could not read request body")
	}
	id, herr := s.storeUpload(up, r.Header.Get("Content-Type"), data, herr)
	if herr != nil {
		return herr
	}
	edge.WriteJSON(w, http.StatusOK, ingest.Upload{StorageID: id})
	return nil
}

// mintUpload records a minted upload URL for the path's project. Server.mu
// is unlocked in a defer, as op.locked does, so that a panic here
// (recovered by net/http) cannot leave every later request waiting on it.
func (s *Server) mintUpload(a actor, project, token string) *edge.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	projectID, herr := s.st.ingestProject(a, project)
	if herr != nil {
		return herr
	}
	s.st.sweepIngestLocked()
	st := &s.st.ingest
	if st.uploads == nil {
		st.uploads = map[string]*uploadRec{}
	}
	st.uploads[token] = &uploadRec{projectID: projectID, expires: s.now().Add(UploadURLTTL)}
	return nil
}

// storeUpload keeps data as the artifact of the claimed URL up and returns
// its id; when reading the body failed (readErr), or no id can be made,
// the URL is left usable again. Server.mu is unlocked in a defer, as in
// mintUpload.
func (s *Server) storeUpload(up *uploadRec, contentType string, data []byte, readErr *edge.Error) (string, *edge.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	herr := readErr
	var id string
	if herr == nil {
		var err error
		if id, err = s.st.newID("stg", ""); err != nil {
			herr = edge.Internal()
		}
	}
	if herr != nil {
		up.used = false // a failed upload leaves the URL usable
		return "", herr
	}
	s.st.sweepIngestLocked()
	s.st.addArtifact(&artifactRec{id: id, projectID: up.projectID, contentType: contentType,
		data: data, createdAt: s.now()})
	return id, nil
}
