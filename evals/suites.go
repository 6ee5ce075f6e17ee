package evals

import (
	"context"
	"iter"
	"net/http"
	"strconv"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// SuiteService is the eval suites API. Use Client.Evals.Suites.
type SuiteService struct{ t *transport.Transport }

// tr is s's transport; nil for a nil s (a zero Service's Suites), which
// transport.Do refuses with a VALIDATION_ERROR instead of panicking.
func (s *SuiteService) tr() *transport.Transport {
	if s == nil {
		return nil
	}
	return s.t
}

// List returns one page of the project's eval suites with their latest
// run, totals and pass-rate trend (the service sends them all at once).
// p may be nil.
func (s *SuiteService) List(ctx context.Context, projectID string, p *ListParams, opts ...option.RequestOption) (*shared.Page[Suite], error) {
	ctx = transport.WithOptions(ctx, opts)
	return s.page(ctx, projectID, pager.Copy(p).Cursor)
}

// All iterates over the project's eval suites from p.Cursor on.
func (s *SuiteService) All(ctx context.Context, projectID string, p *ListParams, opts ...option.RequestOption) iter.Seq2[Suite, error] {
	ctx = transport.KeepOptions(ctx, opts)
	return pager.Seq(ctx, pager.Copy(p).Cursor, func(ctx context.Context, cursor string) (*shared.Page[Suite], error) {
		return s.page(ctx, projectID, cursor)
	})
}

func (s *SuiteService) page(ctx context.Context, projectID, cursor string) (*shared.Page[Suite], error) {
	return transport.Call[shared.Page[Suite]](ctx, s.tr(), &transport.Request{Method: http.MethodGet,
		Route: routeSuites, Params: []string{projectID}, Query: transport.Query("cursor", cursor)})
}

// Create authors a suite and its test cases without running anything (no
// credits are spent); run it later with Runs.Create and the returned
// SuiteID. It sends an Idempotency-Key (generated once per call, or
// option.WithIdempotencyKey's), by which the service authors one suite
// however often the call is sent, so it is retried like a read.
func (s *SuiteService) Create(ctx context.Context, projectID string, p CreateSuiteParams, opts ...option.RequestOption) (*SuiteCreated, error) {
	ctx = transport.WithOptions(ctx, opts) // first: a refusal below resets WithResponseInto's target too
	if err := checkTestsMatch(p.Tests); err != nil {
		return nil, err
	}
	return transport.Call[SuiteCreated](ctx, s.tr(), &transport.Request{Method: http.MethodPost,
		Route: routeSuites, Params: []string{projectID}, Body: p, Class: transport.Write, IdempotencyKey: true})
}

// ListRuns returns the suite's recent runs, newest first (one page: the
// service sends the p.Limit most recent). p may be nil.
func (s *SuiteService) ListRuns(ctx context.Context, projectID, suiteID string, p *SuiteRunsParams, opts ...option.RequestOption) (*shared.Page[Run], error) {
	ctx = transport.WithOptions(ctx, opts)
	v := pager.Copy(p)
	if err := apierr.CheckLimit(v.Limit, MaxSuiteRunsLimit); err != nil {
		return nil, err
	}
	return s.runsPage(ctx, projectID, suiteID, v, v.Cursor)
}

// AllRuns iterates over the suite's recent runs, newest first, from
// p.Cursor on.
func (s *SuiteService) AllRuns(ctx context.Context, projectID, suiteID string, p *SuiteRunsParams, opts ...option.RequestOption) iter.Seq2[Run, error] {
	ctx = transport.KeepOptions(ctx, opts)
	v := pager.Copy(p)
	if err := apierr.CheckLimit(v.Limit, MaxSuiteRunsLimit); err != nil {
		return pager.Fail[Run](err)
	}
	return pager.Seq(ctx, v.Cursor, func(ctx context.Context, cursor string) (*shared.Page[Run], error) {
		return s.runsPage(ctx, projectID, suiteID, v, cursor)
	})
}

func (s *SuiteService) runsPage(ctx context.Context, projectID, suiteID string, p SuiteRunsParams, cursor string) (*shared.Page[Run], error) {
	limit := ""
	if p.Limit != 0 {
		limit = strconv.Itoa(p.Limit)
	}
	return transport.Call[shared.Page[Run]](ctx, s.tr(), &transport.Request{Method: http.MethodGet,
		Route: routeSuiteRuns, Params: []string{projectID, suiteID}, Query: transport.Query("limit", limit, "cursor", cursor)})
}
