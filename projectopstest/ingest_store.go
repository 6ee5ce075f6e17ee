package projectopstest

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/internal/apierr"
)

// Upload URLs: served by the double itself under uploadPath, without a key,
// valid for UploadURLTTL and once.
const (
	uploadPath = "/eval-ingest-uploads/"
	// UploadURLTTL is how long a minted upload URL stays valid.
	UploadURLTTL = 5 * time.Minute
)

// startRunLocked creates the run named by p.ExternalRunID in the project,
// or returns the existing one (reused). The suite is found or created by
// name.
func (s *Server) startRunLocked(a actor, projectPath string, p ingest.RunParams) (*evalRunRec, bool, *httpError) {
	projectID, herr := s.ingestProjectLocked(a, projectPath)
	if herr != nil {
		return nil, false, herr
	}
	st := &s.st.ingest
	key := projectID + "\x00" + p.ExternalRunID
	if run := st.byExt[key]; run != nil {
		return run, true, nil
	}
	suiteID, err := s.suiteByNameLocked(projectID, p.SuiteName)
	if err != nil {
		return nil, false, errInternal()
	}
	id, err := s.st.newID("run", "")
	if err != nil {
		return nil, false, errInternal()
	}
	if st.runs == nil {
		st.runs, st.byExt = map[string]*evalRunRec{}, map[string]*evalRunRec{}
	}
	n := 1
	for _, r := range st.runs {
		if r.suiteID == suiteID {
			n++
		}
	}
	p.ServerNames = append([]string(nil), p.ServerNames...)
	p.Tags = append([]string(nil), p.Tags...)
	run := &evalRunRec{id: id, projectID: projectID, suiteID: suiteID, externalRunID: p.ExternalRunID,
		source: "sdk", runNumber: n, status: ingest.StatusRunning, result: ingest.ResultPending, params: p,
		createdAt: s.now(), ord: s.st.nextOrd(), seen: map[string]bool{}}
	st.runs[id], st.byExt[key] = run, run
	return run, false, nil
}

// suiteByNameLocked returns the project's suite called name, creating it.
func (s *Server) suiteByNameLocked(projectID, name string) (string, error) {
	for _, su := range sortedByOrd(s.st.suites, func(v *evalSuiteRec) int { return v.ord },
		func(v *evalSuiteRec) bool { return v.projectID == projectID && v.name == name }) {
		return su.id, nil
	}
	return s.addEvalSuiteLocked(EvalSuiteSpec{ProjectID: projectID, Name: name})
}

// findIngestRunLocked resolves a run of the project; another project's run
// reads as 404.
func (s *Server) findIngestRunLocked(a actor, projectPath, runID string) (*evalRunRec, *httpError) {
	projectID, herr := s.ingestProjectLocked(a, projectPath)
	if herr != nil {
		return nil, herr
	}
	run := s.st.ingest.runs[runID]
	if run == nil || run.projectID != projectID {
		return nil, notFoundIn("Run")
	}
	return run, nil
}

// insertResultsLocked stores results, skipping any whose
// externalIterationId the run already holds (or that repeats within rs).
func (s *Server) insertResultsLocked(run *evalRunRec, rs []ingest.Result) (inserted, skipped int) {
	st := &s.st.ingest
	now := s.now()
	for i := range rs {
		res := &rs[i]
		if !st.discard && res.ExternalIterationID != "" {
			if run.seen[res.ExternalIterationID] {
				skipped++
				continue
			}
			run.seen[res.ExternalIterationID] = true
		}
		inserted++
		if res.Passed {
			run.passed++
		} else {
			run.failed++
		}
		if st.discard {
			continue
		}
		n := len(run.iters) + 1
		kept := *res
		run.iters = append(run.iters, &evalIterRec{id: run.id + "_it" + strconv.Itoa(n), number: n,
			passed: res.Passed, res: &kept, createdAt: now})
	}
	return inserted, skipped
}

// finalizeLocked computes the run's terminal status and result: an empty
// run, or one with fewer rows than expectedIterations, fails; otherwise it
// is completed and passes when its pass rate reaches the pass criteria's
// minimum (100% by default).
func (s *Server) finalizeLocked(run *evalRunRec) {
	sum := run.summary()
	run.completedAt = s.now()
	run.status, run.result = ingest.StatusCompleted, ingest.ResultFailed
	if sum.Total == 0 || sum.Total < run.params.ExpectedIterations {
		run.status = ingest.StatusFailed
		return
	}
	min := 100.0
	if pc := run.params.PassCriteria; pc != nil {
		min = pc.MinimumPassRate
	}
	if sum.PassRate*100 >= min-1e-9 {
		run.result = ingest.ResultPassed
	}
}

func (s *Server) runResultLocked(run *evalRunRec, reused bool) ingest.RunResult {
	sum := run.summary()
	return ingest.RunResult{OK: true, SuiteID: run.suiteID, RunID: run.id, ProjectID: run.projectID,
		Reused: reused, Status: run.status, Result: run.result, Summary: &sum}
}

// ingestUploadURL mints a single-use upload URL served by this double.
func (s *Server) ingestUploadURL(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	if herr := s.checkIngestAccess(r, a); herr != nil {
		return herr
	}
	if herr := rejectBody(r); herr != nil {
		return herr
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	s.mu.Lock()
	projectID, herr := s.ingestProjectLocked(a, r.PathValue("projectId"))
	if herr == nil {
		st := &s.st.ingest
		if st.uploads == nil {
			st.uploads = map[string]*uploadRec{}
		}
		st.uploads[token] = &uploadRec{projectID: projectID, expires: s.now().Add(UploadURLTTL)}
	}
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	writeJSON(w, http.StatusOK, ingest.UploadURL{OK: true, UploadURL: s.URL() + uploadPath + token})
	return nil
}

// ingestUpload stores the raw body sent to a minted URL. No key is needed:
// the URL is the capability.
func (s *Server) ingestUpload(w http.ResponseWriter, r *http.Request, _ actor) *httpError {
	data, err := io.ReadAll(io.LimitReader(r.Body, ingest.MaxArtifactBytes+1))
	if err != nil {
		return errValidation("", "Could not read request body")
	}
	if len(data) > ingest.MaxArtifactBytes {
		return newError(apierr.CodeValidation, "Artifact exceeds the upload size limit",
			map[string]any{"limit": ingest.MaxArtifactBytes})
	}
	s.mu.Lock()
	st := &s.st.ingest
	up := st.uploads[r.PathValue("token")]
	var herr *httpError
	var id string
	switch {
	case up == nil:
		herr = notFoundIn("Upload URL")
	case up.used:
		herr = errForbidden("Upload URL was already used")
	case !s.now().Before(up.expires):
		herr = errForbidden("Upload URL has expired")
	default:
		up.used = true
		if id, err = s.st.newID("stg", ""); err != nil {
			herr = errInternal()
			break
		}
		if st.artifacts == nil {
			st.artifacts = map[string]*artifactRec{}
		}
		st.artifacts[id] = &artifactRec{id: id, projectID: up.projectID, contentType: r.Header.Get("Content-Type"),
			data: data, createdAt: s.now()}
	}
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	writeJSON(w, http.StatusOK, ingest.Upload{StorageID: id})
	return nil
}
