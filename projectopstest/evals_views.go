package projectopstest

import (
	"slices"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/wire"
)

// passRateTrendLen is how many recent finished runs passRateTrend holds.
const passRateTrendLen = 10

// runView is a run as the API shows it. Call with Server.mu held.
func runView(r *evalRunRec) evals.Run {
	sum := r.summary()
	v := evals.Run{ID: r.id, SuiteID: r.suiteID, RunNumber: r.runNumber, Status: r.status,
		Summary: &sum, Source: r.source, Notes: r.notes, CreatedAt: wire.MillisOf(r.createdAt)}
	if r.terminal() {
		v.Result = r.result
		v.CompletedAt = wire.MillisOf(r.completedAt)
	}
	return v
}

// iterView is an iteration as the API shows it. Call with Server.mu held.
func iterView(it *evalIterRec) evals.Iteration {
	v := evals.Iteration{ID: it.id, TestCaseID: it.caseID, Title: it.test.Title, IterationNumber: it.number,
		Status: it.status, Result: it.result, Model: it.test.Model, Provider: it.test.Provider,
		ActualToolCalls: slices.Clip(it.actual), ExpectedToolCalls: it.expected, Error: it.errText}
	if v.ActualToolCalls == nil {
		v.ActualToolCalls = []evals.ToolCall{}
	}
	if !it.startedAt.IsZero() {
		v.StartedAt = wire.MillisOf(it.startedAt)
	}
	// tokensUsed is null without usage (never ran, cancelled, an ingested
	// row without tokens); a model-free iteration's usage totals 0. An
	// ingested row with fractional counts has tokensUsed without usage.
	if it.usage != nil {
		u := *it.usage
		n := float64(u.TotalTokens)
		v.Usage, v.TokensUsed = &u, &n
	}
	if it.tokensUsed != nil {
		n := *it.tokensUsed // the view must not alias the record
		v.TokensUsed = &n
	}
	// durationMs is null until the iteration is terminal, and for one
	// cancelled before it started (the service computes an engine
	// iteration's duration from its startedAt); a finished iteration's 0
	// is a value.
	if it.status.Terminal() && (it.status != evals.StatusCancelled || !it.startedAt.IsZero()) {
		d := float64(it.duration.Microseconds()) / 1000
		if it.in != nil { // an ingested row's duration as sent, not rounded or saturated
			d = it.in.DurationMs
		}
		v.DurationMs = &d
	}
	return v
}

// suiteRuns returns the suite's runs, oldest first.
func (st *state) suiteRuns(suiteID string) []*evalRunRec {
	return sortedByOrd(st.evals.runs, func(r *evalRunRec) int { return r.ord },
		func(r *evalRunRec) bool { return r.suiteID == suiteID })
}

// suiteView summarises a suite with its runs (oldest first): the newest
// run, totals over finished runs and their recent pass rates.
func suiteView(su *evalSuiteRec, runs []*evalRunRec) evals.Suite {
	v := evals.Suite{ID: su.id, Name: su.name, ProjectID: su.projectID,
		CreatedAt: wire.MillisOf(su.createdAt), UpdatedAt: wire.MillisOf(su.updatedAt), PassRateTrend: []float64{}}
	v.Totals.Runs = len(runs)
	for _, r := range runs {
		if !r.terminal() {
			continue
		}
		v.Totals.Passed += r.passed
		v.Totals.Failed += r.failed
		v.PassRateTrend = append(v.PassRateTrend, r.summary().PassRate)
	}
	if n := len(v.PassRateTrend); n > passRateTrendLen {
		v.PassRateTrend = v.PassRateTrend[n-passRateTrendLen:]
	}
	if n := len(runs); n > 0 {
		r := runs[n-1]
		v.LatestRun = &evals.LatestRun{ID: r.id, Status: r.status, CreatedAt: wire.MillisOf(r.createdAt)}
		// A run still going with no verdict yet has no pass rate: the
		// service sends null for it (its summary is not there yet), not
		// a 0% run. It stays out of passRateTrend, which only finished
		// runs enter.
		if sum := r.summary(); r.terminal() || sum.Passed+sum.Failed > 0 {
			v.LatestRun.PassRate, v.LatestRun.Passed, v.LatestRun.Failed = &sum.PassRate, &sum.Passed, &sum.Failed
		}
	}
	return v
}
