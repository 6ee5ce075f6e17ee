package projectopstest

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/projectopstest/internal/views"
)

// Page sizes of a suite's runs listing (reference service).
const (
	suiteRunsDefaultLimit = 25
	suiteRunsMaxLimit     = 100
)

func evalRoutes(s *Server, rt *router) {
	rt.handle("GET /projects/{projectId}/eval-suites", route(s, op[none, pager.Page[views.Suite]]{need: accessRead, apply: listEvalSuites}))
	rt.handle("POST /projects/{projectId}/eval-suites", route(s, op[suiteBody, evals.SuiteCreated]{
		status: http.StatusCreated, need: accessWrite, check: checkCreateSuite, apply: createEvalSuite}))
	rt.handle("GET /projects/{projectId}/eval-suites/{suiteId}/runs", route(s, op[none, pager.Page[views.Run]]{need: accessRead, apply: listSuiteRuns}))
	rt.handle("POST /projects/{projectId}/eval-runs", route(s, op[runBody, *evals.RunCreated]{
		status: http.StatusAccepted, need: accessWrite, check: checkCreateRun, apply: createEvalRun}))
	rt.handle("GET /projects/{projectId}/eval-runs/{runId}", route(s, op[none, views.Run]{need: accessRead, apply: getEvalRun}))
	rt.handle("POST /projects/{projectId}/eval-runs/{runId}/cancel", route(s, op[noBody, views.Run]{need: accessWrite,
		find: findRun, apply: cancelEvalRun}))
	rt.handle("GET /projects/{projectId}/eval-runs/{runId}/iterations", route(s, op[none, pager.Page[views.Iteration]]{need: accessRead, apply: listIterations}))
	rt.handle("GET /projects/{projectId}/eval-runs/{runId}/iterations/{iterationId}/trace", route(s, op[none, any]{need: accessRead, apply: getTrace}))
	rt.handle("GET /projects/{projectId}/eval-runs/{runId}/iterations/{iterationId}/steps", route(s, op[none, pager.Page[views.Step]]{need: accessRead, apply: getSteps}))
}

func listEvalSuites(c *call, _ *none) (pager.Page[views.Suite], *edge.Error) {
	st, projectID := &c.s.st, c.project.id
	byRun := map[string][]*evalRunRec{}
	for _, run := range sortedByOrd(st.evals.runs, func(r *evalRunRec) int { return r.ord },
		func(r *evalRunRec) bool { return r.projectID == projectID }) {
		byRun[run.suiteID] = append(byRun[run.suiteID], run)
	}
	page := pager.Page[views.Suite]{Items: []views.Suite{}}
	for _, su := range sortedByOrd(st.suites, func(v *evalSuiteRec) int { return v.ord },
		func(v *evalSuiteRec) bool { return v.projectID == projectID }) {
		v := suiteView(su, byRun[su.id])
		page.Items = append(page.Items, views.Suite{Suite: v, LatestRun: v.LatestRun})
	}
	return page, nil
}

func listSuiteRuns(c *call, _ *none) (pager.Page[views.Run], *edge.Error) {
	// Clamped, never refused, as the service reads it.
	limit := edge.ClampLimit(edge.QueryOf(c.r).Get("limit"), suiteRunsDefaultLimit, suiteRunsMaxLimit)
	su := c.s.st.suites[c.path("suiteId")]
	if su == nil || su.projectID != c.project.id {
		return pager.Page[views.Run]{}, notFoundIn("Eval suite")
	}
	runs := c.s.st.suiteRuns(su.id)
	slices.Reverse(runs)
	page := pager.Page[views.Run]{Items: make([]views.Run, 0, min(limit, len(runs)))}
	for _, run := range runs[:min(limit, len(runs))] {
		page.Items = append(page.Items, views.RunOf(runView(run)))
	}
	return page, nil
}

// findSuite resolves a suite of a project the caller may access; a
// suite of another project reads as 404.
func (st *state) findSuite(a actor, projectID, suiteID string, need access) (*evalSuiteRec, *edge.Error) {
	if _, _, herr := st.projectFor(a, projectID, need); herr != nil {
		return nil, herr
	}
	su := st.suites[suiteID]
	if su == nil || su.projectID != projectID {
		return nil, notFoundIn("Eval suite")
	}
	return su, nil
}

func checkCreateSuite(c *call, b *suiteBody) *edge.Error {
	tests, herr := checkTestBodies("tests", b.Tests)
	if herr != nil {
		return herr
	}
	p := &b.CreateSuiteParams
	p.Tests = tests
	p.PassCriteria = passCriteria(c, p.PassCriteria)
	return c.s.ev.checkSuiteParams(p)
}

// createEvalSuite authors a suite: 201, nothing executed.
func createEvalSuite(c *call, b *suiteBody) (evals.SuiteCreated, *edge.Error) {
	s, projectID, p := c.s, c.project.id, &b.CreateSuiteParams
	if herr := s.st.checkServerIDs(projectID, p.ServerIDs, "serverIds"); herr != nil {
		return evals.SuiteCreated{}, herr
	}
	// The service authors one suite per x-mcpjam-idempotency-key (its
	// readIdempotencyKey: a blank or too long header is ignored). A replay
	// runs the request again on that suite: its cases are upserted (one
	// the first request lacked is created) and the answer is this one's.
	var key string
	if k := headerIdempotencyKey(c); k != "" {
		key = c.a.userID + "\x00" + projectID + "\x00" + k
	}
	su := s.st.suites[s.st.evals.suiteIdem[key]]
	if key == "" || su == nil {
		id, err := s.addEvalSuiteLocked(EvalSuiteSpec{ProjectID: projectID, Name: p.Name, ServerIDs: p.ServerIDs})
		if err != nil {
			return evals.SuiteCreated{}, edge.Internal()
		}
		su = s.st.suites[id]
		if key != "" {
			s.st.evals.suiteIdem[key] = id
		}
	} else {
		// Authored again: the suite is what this request describes, as
		// the answer says.
		su.name, su.serverIDs, su.updatedAt = p.Name, slices.Clone(p.ServerIDs), s.now()
	}
	su.def = &suiteDef{description: p.Description, serverNames: slices.Clone(p.ServerNames),
		model: p.Model, provider: p.Provider, passCriteria: p.PassCriteria}
	// The service names a new suite's servers only by the serverNames
	// given (a rerun's, taken from the suite, from the saved servers).
	return evals.SuiteCreated{SuiteID: su.id, Name: p.Name, Servers: s.st.serverRefs(p.ServerIDs, p.ServerNames, false),
		CaseUpsert: s.st.upsertCases(su, p.Tests)}, nil
}

func (e *evalEngine) checkSuiteParams(p *evals.CreateSuiteParams) *edge.Error {
	switch {
	case p.Name == "":
		return edge.Validation("name", "name is required")
	case len(p.ServerIDs) == 0:
		return edge.Validation("serverIds", "serverIds must name at least one server")
	case len(p.ServerNames) > 0 && len(p.ServerNames) != len(p.ServerIDs):
		return edge.Validation("serverNames", "serverNames must be parallel to serverIds")
	}
	if herr := checkPassCriteria(p.PassCriteria); herr != nil {
		return herr
	}
	if _, _, herr := e.resolveModel("model", p.Model, p.Provider, nil); herr != nil {
		return herr
	}
	if herr := checkTests("tests", p.Tests); herr != nil {
		return herr
	}
	for i, t := range p.Tests {
		if _, _, herr := e.resolveModel("tests["+strconv.Itoa(i)+"].model", cmpOr(t.Model, p.Model),
			cmpOr(t.Provider, p.Provider), nil); herr != nil {
			return herr
		}
	}
	return nil
}

// upsertCases stores tests in the suite, replacing the case of the same
// identity (caseKey: title and steps). A test repeating an earlier one of
// the request fails (it would replace the one just stored, reported
// committed too).
func (st *state) upsertCases(su *evalSuiteRec, tests []evals.Test) evals.CaseUpsert {
	var up evals.CaseUpsert
	seen := map[string]string{} // caseKey → case id, this request
	for _, t := range tests {
		k := caseKey(t)
		if id, dup := seen[k]; dup {
			up.Failed = append(up.Failed, evals.CaseFailure{ID: id, Name: t.Title,
				Error: "another test of this request has the same title and steps; the first one was kept"})
			continue
		}
		i := slices.IndexFunc(su.def.cases, func(c *caseRec) bool { return caseKey(c.test) == k })
		if i >= 0 {
			su.def.cases[i] = &caseRec{id: su.def.cases[i].id, test: t}
			up.Committed = append(up.Committed, evals.CaseRef{ID: su.def.cases[i].id, Name: t.Title})
			seen[k] = su.def.cases[i].id
			continue
		}
		id, _ := st.newID("case", "")
		su.def.cases = append(su.def.cases, &caseRec{id: id, test: t})
		up.Committed = append(up.Committed, evals.CaseRef{ID: id, Name: t.Title})
		seen[k] = id
	}
	su.updatedAt = st.now()
	return up
}

// serverRefs names servers: the given display names, else (saved) the
// saved servers' names.
func (st *state) serverRefs(ids, names []string, saved bool) []evals.ServerRef {
	out := make([]evals.ServerRef, len(ids))
	for i, id := range ids {
		out[i].ID = id
		if i < len(names) && names[i] != "" {
			out[i].Name = names[i]
		} else if sv := st.servers[id]; sv != nil && saved {
			out[i].Name = sv.name
		}
	}
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
