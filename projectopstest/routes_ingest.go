package projectopstest

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/internal/apierr"
)

// ingestRoutes serves eval-ingest (spec §4.5, shapes from the reference
// reporter). Successes use the legacy {"ok": true, ...} envelope.
func (s *Server) ingestRoutes() {
	s.handle("POST /projects/{projectId}/eval-ingest/report", s.ingestReport)
	s.handle("POST /projects/{projectId}/eval-ingest/runs/start", s.ingestStart)
	s.handle("POST /projects/{projectId}/eval-ingest/runs/iterations", s.ingestAppend)
	s.handle("POST /projects/{projectId}/eval-ingest/runs/finalize", s.ingestFinalize)
	s.handle("POST /projects/{projectId}/eval-ingest/artifacts/upload-url", s.ingestUploadURL)
	s.handlePublic(uploadRoute, s.ingestUpload)
}

// uploadRoute serves minted upload URLs; its path holds the URL's token,
// which the request log and debug log redact.
const uploadRoute = "POST " + uploadPath + "{token}"

// decodeIngest reads an ingest body under the gateway's 6 MiB cap; a
// projectId in the body is ignored (the path decides).
func decodeIngest(r *http.Request, dst any) (map[string]bool, *httpError) {
	if err := dropBodyProjectID(r, ingest.MaxBodyBytes); err != nil {
		return nil, errValidation("", "Could not read request body")
	}
	return decodeBodyLimit(r, dst, ingest.MaxBodyBytes, newError(apierr.CodeValidation,
		"Payload exceeds the eval ingestion size limit", map[string]any{"limit": ingest.MaxBodyBytes}))
}

// ingestProjectLocked resolves the project path value for a write; the
// literal "default" is the caller's organization's first project.
func (s *Server) ingestProjectLocked(a actor, projectID string) (string, *httpError) {
	if projectID == ingest.DefaultProject {
		projectID = ""
		for _, p := range sortedByOrd(s.st.projects, func(p *projectRec) int { return p.ord },
			func(p *projectRec) bool { return p.orgID == a.orgID }) {
			projectID = p.id
			break
		}
	}
	p, _, herr := s.st.projectFor(a, projectID, accessWrite)
	if herr != nil {
		return "", herr
	}
	return p.id, nil
}

func (s *Server) ingestReport(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	if herr := s.checkIngestAccess(r, a); herr != nil {
		return herr
	}
	var p ingest.ReportParams
	if _, herr := decodeIngest(r, &p); herr != nil {
		return herr
	}
	if herr := validateRunParams(p.RunParams); herr != nil {
		return herr
	}
	if herr := validateResults(p.Results, false); herr != nil {
		return herr
	}
	s.mu.Lock()
	run, _, herr := s.startIngestedRunLocked(a, r.PathValue("projectId"), p.RunParams)
	if herr == nil && !run.terminal() {
		s.insertResultsLocked(run, p.Results)
		s.finalizeIngestedLocked(run)
	}
	var out ingest.RunResult
	if herr == nil {
		out = s.runResultLocked(run, false)
	}
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) ingestStart(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	if herr := s.checkIngestAccess(r, a); herr != nil {
		return herr
	}
	var p ingest.RunParams
	if _, herr := decodeIngest(r, &p); herr != nil {
		return herr
	}
	if herr := validateRunParams(p); herr != nil {
		return herr
	}
	s.mu.Lock()
	run, reused, herr := s.startIngestedRunLocked(a, r.PathValue("projectId"), p)
	var out ingest.RunResult
	if herr == nil {
		out = s.runResultLocked(run, reused)
	}
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) ingestAppend(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	if herr := s.checkIngestAccess(r, a); herr != nil {
		return herr
	}
	var p ingest.AppendParams
	if _, herr := decodeIngest(r, &p); herr != nil {
		return herr
	}
	if p.RunID == "" {
		return errValidation("runId", "runId is required")
	}
	if herr := validateResults(p.Results, true); herr != nil {
		return herr
	}
	s.mu.Lock()
	run, herr := s.findIngestedRunLocked(a, r.PathValue("projectId"), p.RunID)
	if herr == nil && run.terminal() {
		herr = newError(apierr.CodeConflict, "Run is already finalized; start a new run to add iterations",
			map[string]any{"runId": run.id, "status": string(run.status)})
	}
	var out ingest.AppendResult
	if herr == nil {
		out.Inserted, out.Skipped = s.insertResultsLocked(run, p.Results)
		out.OK, out.Total = true, run.passed+run.failed
	}
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) ingestFinalize(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	if herr := s.checkIngestAccess(r, a); herr != nil {
		return herr
	}
	var p ingest.FinalizeParams
	if _, herr := decodeIngest(r, &p); herr != nil {
		return herr
	}
	if p.RunID == "" {
		return errValidation("runId", "runId is required")
	}
	if p.ExternalRunID == "" {
		return errValidation("externalRunId", "externalRunId is required")
	}
	s.mu.Lock()
	run, herr := s.findIngestedRunLocked(a, r.PathValue("projectId"), p.RunID)
	if herr == nil && run.ext.params.ExternalRunID != p.ExternalRunID {
		herr = errValidation("externalRunId", "externalRunId does not match the run's")
	}
	var out ingest.RunResult
	if herr == nil {
		if !run.terminal() {
			s.finalizeIngestedLocked(run)
		}
		out = s.runResultLocked(run, false)
	}
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// checkIngestAccess resolves the project before the body is read, so a
// caller without write access learns nothing from validation.
func (s *Server) checkIngestAccess(r *http.Request, a actor) *httpError {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, herr := s.ingestProjectLocked(a, r.PathValue("projectId"))
	return herr
}

// validateRunParams checks the fields the service requires of a run.
func validateRunParams(p ingest.RunParams) *httpError {
	switch {
	case strings.TrimSpace(p.SuiteName) == "":
		return errValidation("suiteName", "suiteName is required")
	case p.ExternalRunID == "":
		return errValidation("externalRunId", "externalRunId is required")
	case len(p.ExternalRunID) > 256:
		return errValidation("externalRunId", "externalRunId is longer than 256 characters")
	case p.PassCriteria != nil && (p.PassCriteria.MinimumPassRate < 0 || p.PassCriteria.MinimumPassRate > 100):
		return errValidation("passCriteria.minimumPassRate", "minimumPassRate must be a percentage between 0 and 100")
	case p.ExpectedIterations < 0:
		return errValidation("expectedIterations", "expectedIterations must not be negative")
	}
	return nil
}

// validateResults checks each result; nonEmpty requires at least one.
func validateResults(rs []ingest.Result, nonEmpty bool) *httpError {
	if nonEmpty && len(rs) == 0 {
		return errValidation("results", "results must not be empty")
	}
	for i, res := range rs {
		at := "results[" + strconv.Itoa(i) + "]."
		switch {
		case strings.TrimSpace(res.CaseTitle) == "":
			return errValidation(at+"caseTitle", "caseTitle is required")
		case res.CaseID != "" && res.ExternalCaseID != "" && res.CaseID != res.ExternalCaseID:
			return errValidation(at+"caseId", "caseId must equal externalCaseId when both are set")
		case res.DurationMS < 0:
			return errValidation(at+"durationMs", "durationMs must not be negative")
		case len(res.ExternalIterationID) > 256:
			return errValidation(at+"externalIterationId", "externalIterationId is longer than 256 characters")
		}
	}
	return nil
}
