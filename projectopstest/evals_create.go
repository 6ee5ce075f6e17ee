package projectopstest

import (
	"slices"
	"strconv"

	"github.com/projectops/projectops-go/projectopstest/internal/evalmodel"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/shared"
)

// createRunLocked checks the request's test models (those naming both
// model and provider before the suite is read), resolves the suite,
// environment and servers, applies the concurrency cap, the caseIds scope
// and the model-call cap, authors the request's tests into the suite (not
// on a suiteRerun) and saves the launch's server selection, then answers a
// replay of the idempotency key with its run or stores the run and starts
// it, in the service's order (prepareEvalRun authors before the run-level
// dedupe). Nothing is stored unless every check passes, but for inline
// tests with caseIds naming none of a stored suite's cases: those tests
// are authored and the launch's server selection saved (on a suiteRerun,
// only the selection, with refreshSnapshot), then refused (the double's
// choice, below). A new suite is stored only with its run, so a replay of
// the key finds it.
func (e *evalEngine) createRunLocked(a actor, projectID string, p *evals.RunParams, idemKey string) (*evals.RunCreated, *edge.Error) {
	s := e.s
	if _, _, herr := s.st.projectFor(a, projectID, accessWrite); herr != nil {
		return nil, herr
	}
	// A key names one run of one suite for one actor (reference notes:
	// same actor and suite): the same key on another suite starts that
	// suite's run. A suite created by name is that name's and its id's.
	scoped := func(id, name string) string { return idemKey + "\x00" + suiteScope(id, name) }
	var prior *evalRunRec
	if id, ok := s.st.evals.idem[scoped(p.SuiteID, p.SuiteName)]; ok && idemKey != "" {
		prior = s.st.evals.runs[id]
	}
	keys := map[string]string(p.ModelAPIKeys)
	if keys == nil {
		keys = map[string]string{}
	}
	// The service checks the request's test models first
	// (assertInlineTestModelsValid), before it reads the suite and its
	// environments (resolveLaunchServers).
	if herr := e.checkTestModels(p.Tests, nil, keys); herr != nil {
		return nil, herr
	}
	var su *evalSuiteRec
	def := &suiteDef{}
	serverIDs, names := p.ServerIDs, []string(nil)
	if p.SuiteID != "" {
		var herr *edge.Error
		if su, herr = s.st.findSuite(a, projectID, p.SuiteID, accessWrite); herr != nil {
			return nil, herr
		}
	} else if prior != nil {
		// A replay authors into the suite the first request created.
		su = s.st.suites[prior.suiteID]
	}
	if su != nil && su.def != nil {
		def = su.def
	}
	if herr := e.checkTestModels(p.Tests, def, keys); herr != nil {
		return nil, herr
	}
	if p.SuiteID != "" && p.EnvironmentID != "" {
		return nil, environmentNotAttached(p.EnvironmentID)
	}
	if su != nil {
		if len(serverIDs) == 0 {
			serverIDs, names = su.serverIDs, def.serverNames
		}
		if len(serverIDs) == 0 {
			// The service's details: the suite and the reason, no field.
			return nil, edge.NewError(shared.CodeValidation, "The suite has no saved server selection: pass serverIds",
				map[string]any{"suiteId": su.id, "reason": string(shared.ReasonNoSavedServerSelection)})
		}
	}
	if herr := s.st.checkServerIDs(projectID, serverIDs, "serverIds"); herr != nil {
		return nil, herr
	}
	// A suiteRerun of a stored suite runs its stored cases: the service's
	// authorEvalSuite skips the upsert of the request's tests (a new suite
	// is authored all the same).
	rerun := p.SuiteRerun && p.SuiteID != ""
	authored := p.Tests
	if rerun {
		authored = nil
	}
	cases := slices.Clone(def.cases)
	given := map[string]bool{}
	for _, t := range authored {
		k := caseKey(t)
		if given[k] {
			continue // a repeated test: the first runs, as upsertCases keeps it
		}
		given[k] = true
		i := slices.IndexFunc(cases, func(c *caseRec) bool { return caseKey(c.test) == k })
		if i >= 0 {
			cases[i] = &caseRec{id: cases[i].id, test: t}
		} else {
			cases = append(cases, &caseRec{test: t})
		}
	}
	if len(cases) == 0 {
		return nil, edge.Validation("suiteId", "The suite has no tests to run")
	}
	resolved := make([]evals.Test, len(cases))
	for i, c := range cases {
		t := c.test
		var herr *edge.Error
		t.Model, t.Provider, herr = e.resolveModel("tests["+strconv.Itoa(i)+"].model",
			cmpOr(t.Model, def.model), cmpOr(t.Provider, def.provider), keys)
		if herr != nil {
			return nil, herr
		}
		t.Runs = max(t.Runs, 1)
		if p.IterationOverride > 0 {
			t.Runs = p.IterationOverride
		}
		resolved[i] = t
	}
	if herr := e.checkRunQuotaLocked(a.orgID); herr != nil {
		return nil, herr
	}
	// Only stored cases have ids: a test new in this request is never one
	// of them (caseIds without a suiteId was refused with the body). The
	// service refuses caseIds naming none of the suite's cases only on a
	// bare rerun, before authoring; with inline tests it authors first and
	// its backend scopes the run.
	resolved, scopeErr := scopeToCases(cases, resolved, p.CaseIDs)
	if scopeErr != nil && len(p.Tests) == 0 {
		return nil, scopeErr
	}
	capped := p.Tests
	if len(capped) == 0 {
		capped = resolved
	}
	if herr := checkModelCallCap(capped, p.IterationOverride); herr != nil {
		return nil, herr
	}

	// Every check passed (an inline request's empty caseIds scope is
	// refused after authoring, below): store the suite, then the run.
	var up evals.CaseUpsert
	if su == nil {
		id, err := s.addEvalSuiteLocked(EvalSuiteSpec{ProjectID: projectID, Name: p.SuiteName, ServerIDs: serverIDs})
		if err != nil {
			return nil, edge.Internal()
		}
		su = s.st.suites[id]
		su.def = &suiteDef{description: p.SuiteDescription, serverNames: savedServerNames(serverIDs, p.ServerNames)}
	} else if su.def == nil {
		su.def = def
	}
	if len(authored) > 0 {
		up = s.st.upsertCases(su, authored)
	}
	// The service's authorEvalSuite saves the launch's servers as the
	// suite's on every launch but a rerun that does not refreshSnapshot (a
	// bare suiteId is always a rerun); without serverIds they are the
	// suite's own already.
	if p.SuiteID != "" && len(p.ServerIDs) > 0 && (!(p.SuiteRerun || len(p.Tests) == 0) || p.RefreshSnapshot) {
		su.serverIDs, su.def.serverNames = slices.Clone(p.ServerIDs), savedServerNames(p.ServerIDs, p.ServerNames)
		su.updatedAt = s.now()
	}
	if prior != nil {
		return &evals.RunCreated{RunID: prior.id, SuiteID: prior.suiteID, Status: prior.status,
			Servers: prior.servers, CaseUpsert: up, Deduped: true}, nil
	}
	if scopeErr != nil {
		// The double's choice where the service's backend (not in the
		// reference) decides: no run, the bare rerun's 404, the request's
		// tests authored as the service authors them before scoping.
		return nil, scopeErr
	}
	run := e.newRunLocked(a, projectID, su, p, serverIDs, names, resolved)
	if idemKey != "" {
		s.st.evals.idem[scoped(p.SuiteID, p.SuiteName)] = run.id
		s.st.evals.idem[scoped(su.id, "")] = run.id
	}
	e.startRunLocked(run)
	// A fresh run is reported "running" as the reference service does
	// (execution is detached); polling shows pending until it starts.
	return &evals.RunCreated{RunID: run.id, SuiteID: su.id, Status: evals.StatusRunning, Servers: run.servers,
		CaseUpsert: up}, nil
}

// savedServerNames is the serverNames a launch saves with its serverIds as
// the suite's selection: all of them when parallel to the ids, else none
// (the service's buildPersistedSuiteEnvironment binds names to ids only
// pairwise, and the run create schema does not refuse a mismatch).
func savedServerNames(ids, names []string) []string {
	if len(names) == 0 || len(names) != len(ids) {
		return nil
	}
	return slices.Clone(names)
}

// checkTestModels holds the request's test models to the run gate, the
// suite's default model and provider filling in what a test leaves out.
// With no suite read yet (def nil) it checks only the tests naming both,
// the only tests the service's schema takes; the rest wait for the suite.
func (e *evalEngine) checkTestModels(tests []evals.Test, def *suiteDef, keys map[string]string) *edge.Error {
	for i, t := range tests {
		model, provider := t.Model, t.Provider
		if def != nil {
			model, provider = cmpOr(model, def.model), cmpOr(provider, def.provider)
		} else if model == "" || provider == "" {
			continue
		}
		if _, _, herr := e.resolveModel("tests["+strconv.Itoa(i)+"].model", model, provider, keys); herr != nil {
			return herr
		}
	}
	return nil
}

// scopeToCases keeps the resolved tests of the cases whose ids are among
// ids (resolved[i] is cases[i]'s), all of them when ids is nil; none is 404
// NOT_FOUND, as the service answers a bare rerun.
func scopeToCases(cases []*caseRec, resolved []evals.Test, ids []string) ([]evals.Test, *edge.Error) {
	if ids == nil {
		return resolved, nil
	}
	var kept []evals.Test
	for i, c := range cases {
		if c.id != "" && slices.Contains(ids, c.id) {
			kept = append(kept, resolved[i])
		}
	}
	if len(kept) == 0 {
		return nil, edge.NewError(shared.CodeNotFound, "None of the requested caseIds belong to this suite", nil)
	}
	return kept, nil
}

// checkRunQuotaLocked refuses a run over the organization's cap of runs in
// flight: 429 RATE_LIMITED, reason CONCURRENT_RUN_LIMIT. No Retry-After:
// the cap lifts when a run ends, which nobody can predict.
func (e *evalEngine) checkRunQuotaLocked(orgID string) *edge.Error {
	s := e.s
	n := 0
	for _, r := range s.st.evals.runs {
		if r.orgID == orgID && r.exec != nil && !r.terminal() {
			n++
		}
	}
	if n < e.opts.concurrency {
		return nil
	}
	return edge.NewError(shared.CodeRateLimited, "Too many eval runs in flight for this organization",
		map[string]any{"reason": string(shared.ReasonConcurrentRunLimit), "maxConcurrentRuns": e.opts.concurrency})
}

// newRunLocked stores a pending run with one iteration per test per run.
func (e *evalEngine) newRunLocked(a actor, projectID string, su *evalSuiteRec, p *evals.RunParams,
	serverIDs, names []string, tests []evals.Test) *evalRunRec {
	s := e.s
	id, _ := s.st.newID("run", "")
	n := s.st.nextRunNumberLocked(su.id)
	keys := e.runModelKeysLocked(a.orgID, p.ModelAPIKeys)
	run := &evalRunRec{id: id, projectID: projectID, orgID: a.orgID, suiteID: su.id, source: evals.SourceAPI,
		runNumber: n, status: evals.StatusPending, notes: p.Notes, passCriteria: p.PassCriteria,
		createdAt: s.now(), ord: s.st.nextOrd(), servers: s.st.serverRefs(serverIDs, names, len(p.ServerIDs) == 0), // named from the saved servers only when they are the suite's
		exec: &runExec{userID: a.userID, modelKeys: keys}}
	if run.passCriteria == nil && su.def != nil {
		run.passCriteria = su.def.passCriteria
	}
	caseIDs := map[string]string{}
	for _, c := range su.def.cases {
		caseIDs[caseKey(c.test)] = c.id
	}
	for _, t := range tests {
		exp := evalmodel.ExpectedCalls(t)
		for range t.Runs {
			itID, _ := s.st.newID("itr", "")
			run.iters = append(run.iters, &evalIterRec{id: itID, number: len(run.iters) + 1,
				caseID: caseIDs[caseKey(t)], test: t, status: evals.StatusPending, expected: exp})
		}
	}
	s.st.evals.runs[id] = run
	e.trimRunsLocked()
	return run
}

// suiteScope is the suite part of an idempotency key: the suite's id, or
// for a suite created by the request, its name.
func suiteScope(id, name string) string {
	if id != "" {
		return "id:" + id
	}
	return "name:" + name
}

// reasonEnvironmentNotAttached is the service's details.reason for an
// environmentId the suite does not have attached.
const reasonEnvironmentNotAttached = "ENVIRONMENT_NOT_ATTACHED"

// environmentNotAttached is the service's selectSuiteEnvironmentId refusal
// of an explicit environmentId: no suite has environments in the double,
// so every one is unattached, and the service's message and details say
// so (environmentIds lists the suite's: none).
func environmentNotAttached(id string) *edge.Error {
	return edge.NewError(shared.CodeValidation, "Environment "+id+
		" is not attached to this suite, which has no environments at all."+
		" Attach it first (PATCH the suite with environmentIds), then retry.",
		map[string]any{"reason": reasonEnvironmentNotAttached, "environmentId": id, "environmentIds": []string{}})
}
