package projectopstest

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/apierr"
)

// maxIdempotencyKey is the longest Idempotency-Key honoured; a blank or
// longer key is ignored, not rejected (reference gateway).
const maxIdempotencyKey = 256

// createEvalRun validates, checks the quota and starts a run: 202 at once.
func (s *Server) createEvalRun(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID := r.PathValue("projectId")
	s.mu.Lock()
	_, _, herr := s.st.projectFor(a, projectID, accessWrite)
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	var p evals.RunParams
	if _, herr := decodeBody(r, &p); herr != nil {
		return herr
	}
	if herr := checkRunParams(&p); herr != nil {
		return herr
	}
	key := strings.TrimSpace(r.Header.Get("Idempotency-Key"))
	if len(key) > maxIdempotencyKey {
		key = ""
	}
	if key != "" {
		key = a.userID + "\x00" + projectID + "\x00" + key
	}

	s.mu.Lock()
	out, herr := s.createRunLocked(a, projectID, &p, key)
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	writeJSON(w, http.StatusAccepted, out)
	return nil
}

func checkRunParams(p *evals.RunParams) *httpError {
	if p.SuiteID == "" {
		switch {
		case strings.TrimSpace(p.SuiteName) == "":
			return errValidation("suiteName", "Give suiteId to rerun a suite, or suiteName with tests and serverIds")
		case len(p.Tests) == 0:
			return errValidation("tests", "A new suite needs inline tests")
		case len(p.ServerIDs) == 0:
			return errValidation("serverIds", "A new suite needs serverIds")
		}
	}
	if p.SuiteID != "" && p.ServerIDs != nil && len(p.ServerIDs) == 0 {
		return errValidation("serverIds", "serverIds must name at least one server when given")
	}
	if len(p.Tests) > 0 {
		if herr := checkTests("tests", p.Tests); herr != nil {
			return herr
		}
	}
	if p.IterationOverride < 0 || p.IterationOverride > maxEvalRuns {
		return errValidation("iterationOverride", "iterationOverride must be between 1 and "+strconv.Itoa(maxEvalRuns))
	}
	for prov, k := range p.ModelAPIKeys {
		if prov == "" || k == "" {
			return errValidation("modelApiKeys", "modelApiKeys maps a provider to a non-empty key")
		}
	}
	return checkPassCriteria(p.PassCriteria)
}

func (s *Server) getEvalRun(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	s.mu.Lock()
	run, herr := s.findRunLocked(a, r.PathValue("projectId"), r.PathValue("runId"), accessRead)
	if herr != nil {
		s.mu.Unlock()
		return herr
	}
	v := runJSONOf(runView(run))
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, v)
	return nil
}

// findRunLocked resolves a run of a project the caller may access; another
// project's run reads as 404.
func (s *Server) findRunLocked(a actor, projectID, runID string, need access) (*evalRunRec, *httpError) {
	if _, _, herr := s.st.projectFor(a, projectID, need); herr != nil {
		return nil, herr
	}
	run := s.st.evals.runs[runID]
	if run == nil || run.projectID != projectID {
		if herr := s.droppedRunError(projectID, runID); herr != nil {
			return nil, herr
		}
		return nil, notFoundIn("Eval run")
	}
	return run, nil
}

// cancelEvalRun follows section 3: an in-flight run becomes cancelled with
// its pending and running iterations (in-flight MCP calls are stopped
// through the run's context); a cancelled run answers as it is; a run
// completed, failed or timed out is 409 CONFLICT.
func (s *Server) cancelEvalRun(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID, runID := r.PathValue("projectId"), r.PathValue("runId")
	s.mu.Lock()
	_, herr := s.findRunLocked(a, projectID, runID, accessWrite)
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	if herr := rejectBody(r); herr != nil {
		return herr
	}
	s.mu.Lock()
	run, herr := s.findRunLocked(a, projectID, runID, accessWrite)
	var finished func(string, evals.Status)
	switch {
	case herr != nil:
	case run.status == evals.StatusCancelled:
	case run.terminal():
		herr = newError(apierr.CodeConflict, "Run already finished with status "+string(run.status),
			map[string]any{"status": string(run.status)})
	default:
		for _, it := range run.iters {
			if it.status == evals.StatusPending || it.status == evals.StatusRunning {
				it.status = evals.StatusCancelled
			}
		}
		s.endRunLocked(run, evals.StatusCancelled)
		run.execCancel()
		finished = s.ev.opts.hooks.RunFinished
	}
	var v runJSON
	if herr == nil {
		v = runJSONOf(runView(run))
	}
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	if finished != nil {
		finished(runID, evals.StatusCancelled)
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}
