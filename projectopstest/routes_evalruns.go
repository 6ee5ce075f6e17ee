package projectopstest

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest/internal/views"
	"github.com/projectops/projectops-go/shared"
)

// maxIdempotencyKey is the longest Idempotency-Key honoured; a blank or
// longer key is ignored, not rejected (reference gateway). A header counts
// bytes (Node reads header values as Latin-1, a character a byte), the
// body's idempotencyKey UTF-16 code units (the service's zod schema).
const maxIdempotencyKey = 256

func checkCreateRun(c *call, b *runBody) *edge.Error {
	// null is not a string or a list to the service's schema (the route
	// merges nothing over these keys).
	for _, k := range []string{"environmentId", "caseIds"} {
		if v, sent := c.present[k]; sent && !v {
			return edge.Validation(k, k+" must not be null")
		}
	}
	if herr := checkRunBody(b); herr != nil {
		return herr
	}
	p := &b.RunParams
	p.PassCriteria = passCriteria(c, p.PassCriteria)
	// The service's schema takes runGroupId and idempotencyKey as
	// optional strings: absent, not null (the 07-09 reference, which the
	// contract checks, has neither).
	if v, sent := c.present["runGroupId"]; sent && !v {
		return edge.Validation("runGroupId", "runGroupId must be a string")
	}
	if headerIdempotencyKey(c) == "" {
		// The service puts a usable header key in place of the body's
		// before its schema (1 to 256 characters) sees it: only a body
		// key that stays is checked.
		v, sent := c.present["idempotencyKey"]
		if sent && !v {
			return edge.Validation("idempotencyKey", "idempotencyKey must be a string")
		}
		if herr := checkBodyIdempotencyKey(v, p.IdempotencyKey); herr != nil {
			return herr
		}
	}
	return checkRunParams(p)
}

// headerIdempotencyKey is the x-mcpjam-idempotency-key of a run or suite
// create as the gateway reads it, "" when there is none it honours (blank or too
// long). This route reads the prefixed header alone (the service's
// readIdempotencyKey, whatever the reference notes say of the bare
// Idempotency-Key, which other routes read too).
func headerIdempotencyKey(c *call) string {
	if k := strings.TrimSpace(c.r.Header.Get("X-Mcpjam-Idempotency-Key")); len(k) <= maxIdempotencyKey {
		return k
	}
	return ""
}

// checkBodyIdempotencyKey holds a body's idempotencyKey (present: sent,
// not null) to the service's schema: 1 to 256 UTF-16 code units.
func checkBodyIdempotencyKey(present bool, key string) *edge.Error {
	if (present && key == "") || wire.UTF16Len(key) > maxIdempotencyKey {
		return edge.Validation("idempotencyKey", "idempotencyKey must be 1 to "+strconv.Itoa(maxIdempotencyKey)+" characters")
	}
	return nil
}

// passCriteria is a body's passCriteria as the service reads it: an object
// without minimumPassRate sets no threshold (the default, 100), where the
// decoded struct would hold 0 and pass every run.
func passCriteria(c *call, pc *evals.PassCriteria) *evals.PassCriteria {
	if pc != nil && !c.present["passCriteria.minimumPassRate"] {
		return nil
	}
	return pc
}

// createEvalRun checks the quota and starts a run: 202 at once. The
// idempotency key is the gateway's: x-mcpjam-idempotency-key (a blank or
// too long header is ignored), else the body's idempotencyKey.
func createEvalRun(c *call, b *runBody) (*evals.RunCreated, *edge.Error) {
	key := cmp.Or(headerIdempotencyKey(c), b.IdempotencyKey)
	if key != "" {
		key = c.a.userID + "\x00" + c.project.id + "\x00" + key
	}
	return c.s.ev.createRunLocked(c.a, c.project.id, &b.RunParams, key)
}

func checkRunParams(p *evals.RunParams) *edge.Error {
	if p.SuiteID == "" {
		switch {
		case strings.TrimSpace(p.SuiteName) == "":
			return edge.Validation("suiteName", "Give suiteId to rerun a suite, or suiteName with tests and serverIds")
		case len(p.Tests) == 0:
			return edge.Validation("tests", "A new suite needs inline tests")
		case len(p.ServerIDs) == 0:
			return edge.Validation("serverIds", "A new suite needs serverIds")
		}
	}
	if p.SuiteID != "" && p.ServerIDs != nil && len(p.ServerIDs) == 0 {
		return edge.Validation("serverIds", "serverIds must name at least one server when given")
	}
	if len(p.Tests) > 0 {
		if herr := checkTests("tests", p.Tests); herr != nil {
			return herr
		}
	}
	if p.IterationOverride < 0 || p.IterationOverride > maxEvalRuns {
		return edge.Validation("iterationOverride", "iterationOverride must be between 1 and "+strconv.Itoa(maxEvalRuns))
	}
	// The service's schema takes any string for a key; an empty one just
	// does not count as a key (the model check ignores it).
	for prov := range p.ModelAPIKeys {
		if prov == "" {
			return edge.Validation("modelApiKeys", "modelApiKeys maps a provider to a key")
		}
	}
	return checkPassCriteria(p.PassCriteria)
}

// run is the route's {runId}, a run of the call's project; another
// project's run reads as 404. Call with Server.mu held.
func (c *call) run() (*evalRunRec, *edge.Error) {
	return c.s.ev.projectRunLocked(c.project.id, c.path("runId"))
}

func findRun(c *call) *edge.Error {
	_, herr := c.run()
	return herr
}

func getEvalRun(c *call, _ *none) (views.Run, *edge.Error) {
	run, herr := c.run()
	if herr != nil {
		return views.Run{}, herr
	}
	return views.RunOf(runView(run)), nil
}

// projectRunLocked resolves a run of projectID (access already checked).
func (e *evalEngine) projectRunLocked(projectID, runID string) (*evalRunRec, *edge.Error) {
	s := e.s
	run := s.st.evals.runs[runID]
	if run == nil || run.projectID != projectID {
		if herr := e.droppedRunError(projectID, runID); herr != nil {
			return nil, herr
		}
		return nil, notFoundIn("Eval run")
	}
	return run, nil
}

// cancelEvalRun follows section 3: an in-flight run becomes cancelled with
// its pending and running iterations (in-flight MCP calls are stopped
// through the run's context); a cancelled run answers as it is; a run
// completed, failed or timed out is 409 CONFLICT, with a message and no
// details, as the service answers it. A run whose deadline passed before
// the cancel, its executor yet to settle it, is settled as the executor
// would (timed_out, or failed when a server's tools could not be listed)
// and answers 409 the same way.
func cancelEvalRun(c *call, _ *noBody) (views.Run, *edge.Error) {
	run, herr := c.run()
	if herr != nil {
		return views.Run{}, herr
	}
	switch {
	case run.status == evals.StatusCancelled:
	case run.terminal():
		// The service's message names the status as stored ("already
		// timed_out").
		return views.Run{}, edge.NewError(shared.CodeConflict, "Cannot cancel a run that already "+string(run.status), nil)
	case run.deadlinePassed():
		// Its deadline passed before the cancel came, and its executor
		// has yet to settle it: it ends as the executor will make it end
		// (timed_out, or failed after a listing error), as it reads a
		// moment on.
		if finished := c.s.ev.settleLocked(run, run.executorStatus(run.runCtx)); finished != nil {
			c.after(finished)
		}
		return views.Run{}, edge.NewError(shared.CodeConflict, "Cannot cancel a run that already "+string(run.status), nil)
	default:
		for _, it := range run.iters {
			if it.status == evals.StatusRunning && !it.startedAt.IsZero() {
				it.duration = c.s.now().Sub(it.startedAt) // it ran until now
			}
			if it.status == evals.StatusPending || it.status == evals.StatusRunning {
				it.status = evals.StatusCancelled
			}
		}
		c.s.st.endRun(run, evals.StatusCancelled)
		run.execCancel()
		if finished := c.s.ev.opts.hooks.RunFinished; finished != nil {
			c.after(func() { finished(run.id, evals.StatusCancelled) })
		}
	}
	return views.RunOf(runView(run)), nil
}
