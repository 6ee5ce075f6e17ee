package projectopstest

import (
	"net/http"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/pager"
)

// Page sizes of a run's iterations (reference service).
const (
	iterationsDefaultLimit = 50
	iterationsMaxLimit     = evals.MaxIterationsLimit
	iterationsCursorKind   = "iterations"
)

func (s *Server) listIterations(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	q := r.URL.Query()
	limit, herr := parseLimit(q.Get("limit"), "limit", iterationsDefaultLimit, iterationsMaxLimit)
	if herr != nil {
		return herr
	}
	off, herr := decodeOffsetCursor(iterationsCursorKind, q.Get("cursor"), "cursor")
	if herr != nil {
		return herr
	}
	s.mu.Lock()
	run, herr := s.findRunLocked(a, r.PathValue("projectId"), r.PathValue("runId"), accessRead)
	if herr != nil {
		s.mu.Unlock()
		return herr
	}
	n := run.iterCount()
	off = min(off, n)
	end := min(off+limit, n)
	page := pager.Page[iterJSON]{Items: make([]iterJSON, 0, end-off)}
	for i := off; i < end; i++ {
		it := run.iterAt(i)
		page.Items = append(page.Items, iterJSONOf(iterView(it), it.status.Terminal()))
	}
	if end < n {
		page.NextCursor = encodeOffsetCursor(iterationsCursorKind, end)
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, page)
	return nil
}

// findIterationLocked resolves an iteration of a run of the project.
func (s *Server) findIterationLocked(a actor, r *http.Request) (*evalIterRec, *httpError) {
	run, herr := s.findRunLocked(a, r.PathValue("projectId"), r.PathValue("runId"), accessRead)
	if herr != nil {
		return nil, herr
	}
	if it := run.iterByID(r.PathValue("iterationId")); it != nil {
		return it, nil
	}
	return nil, notFoundIn("Iteration")
}

// getTrace answers 404 TRACE_NOT_AVAILABLE for an iteration that kept no
// trace, for one that has not finished (nothing is stored yet), and for an
// ingested row sent without one.
func (s *Server) getTrace(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	s.mu.Lock()
	it, herr := s.findIterationLocked(a, r)
	var tr any
	if herr == nil {
		switch {
		case it.trace != nil:
			tr = it.trace // never mutated once stored
		case it.in != nil:
			if raw := ingestedTrace(it.in.Trace); raw != nil {
				tr = raw
			}
		}
	}
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	if tr == nil {
		return newError(apierr.CodeNotFound, "This iteration has no stored trace",
			map[string]any{"reason": string(apierr.ReasonTraceNotAvailable)})
	}
	writeJSON(w, http.StatusOK, tr)
	return nil
}

// getSteps answers one verdict per authored step, whether or not a trace
// was kept; steps not reached yet are pending.
func (s *Server) getSteps(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	s.mu.Lock()
	it, herr := s.findIterationLocked(a, r)
	var page pager.Page[stepJSON]
	if herr == nil {
		steps := it.steps // never mutated once stored
		if steps == nil {
			steps = make([]evals.StepResult, len(it.test.Steps))
			for i, st := range it.test.Steps {
				steps[i] = evals.StepResult{StepID: st.ID, StepIndex: i, Kind: st.Kind, Status: evals.StepPending}
			}
		}
		page.Items = make([]stepJSON, len(steps))
		for i, st := range steps {
			page.Items[i] = stepJSON{StepResult: st, Reason: orNull(st.Reason)}
		}
	}
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	writeJSON(w, http.StatusOK, page)
	return nil
}
