package projectopstest

import (
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/projectopstest/internal/views"
	"github.com/projectops/projectops-go/shared"
)

// Page sizes of a run's iterations (reference service).
const (
	iterationsDefaultLimit = 50
	iterationsMaxLimit     = evals.MaxIterationsLimit
	iterationsCursorKind   = "iterations"
)

func listIterations(c *call, _ *none) (pager.Page[views.Iteration], *edge.Error) {
	q := edge.QueryOf(c.r)
	// Clamped, never refused, as the service reads it (the reference
	// lists no 400 here).
	limit := edge.ClampLimit(q.Get("limit"), iterationsDefaultLimit, iterationsMaxLimit)
	run, herr := c.run()
	if herr != nil {
		return pager.Page[views.Iteration]{}, herr
	}
	// The cursor names its run: another run's is refused, not read as an
	// offset into this one.
	kind := iterationsCursorKind + ":" + run.id
	off, herr := edge.DecodeOffsetCursor(kind, q.Get("cursor"), "cursor")
	if herr != nil {
		return pager.Page[views.Iteration]{}, herr
	}
	n := run.iterCount()
	off = min(off, n)
	end := min(off+limit, n)
	page := pager.Page[views.Iteration]{Items: make([]views.Iteration, 0, end-off)}
	for i := off; i < end; i++ {
		it := run.iterAt(i)
		page.Items = append(page.Items, views.IterationOf(iterView(it)))
	}
	if end < n {
		page.NextCursor = edge.EncodeOffsetCursor(kind, end)
	}
	return page, nil
}

// iteration is the route's {iterationId} of its run. Call with Server.mu
// held.
func (c *call) iteration() (*evalIterRec, *edge.Error) {
	run, herr := c.run()
	if herr != nil {
		return nil, herr
	}
	if it := run.iterByID(c.path("iterationId")); it != nil {
		return it, nil
	}
	return nil, notFoundIn("Iteration")
}

// getTrace answers 404 TRACE_NOT_AVAILABLE for an iteration that kept no
// trace, for one that has not finished (nothing is stored yet), and for an
// ingested row sent without one.
func getTrace(c *call, _ *none) (any, *edge.Error) {
	it, herr := c.iteration()
	if herr != nil {
		return nil, herr
	}
	switch {
	case it.trace != nil:
		return it.trace, nil // never mutated once stored
	case it.in != nil:
		if raw := ingestedTrace(it.in.Trace); raw != nil {
			return raw, nil
		}
	}
	return nil, edge.NewError(shared.CodeNotFound, "This iteration has no stored trace",
		map[string]any{"reason": string(shared.ReasonTraceNotAvailable)})
}

// getSteps answers one verdict per authored step, whether or not a trace
// was kept; steps not reached yet are pending.
func getSteps(c *call, _ *none) (pager.Page[views.Step], *edge.Error) {
	it, herr := c.iteration()
	if herr != nil {
		return pager.Page[views.Step]{}, herr
	}
	steps := it.steps // never mutated once stored
	if steps == nil {
		steps = make([]evals.StepResult, len(it.test.Steps))
		for i, st := range it.test.Steps {
			steps[i] = evals.StepResult{StepID: st.ID, StepIndex: i, Kind: st.Kind, Status: evals.StepPending}
		}
	}
	page := pager.Page[views.Step]{Items: make([]views.Step, len(steps))}
	for i, st := range steps {
		page.Items[i] = views.Step{StepResult: st, Reason: views.OrNull(st.Reason)}
	}
	return page, nil
}
