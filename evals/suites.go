package evals

import (
	"context"
	"net/http"
	"strconv"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// SuiteService is the eval suites API. Use Client.Evals.Suites.
type SuiteService struct{ t *transport.Transport }

// List returns the project's eval suites with their latest run, totals and
// pass-rate trend (the service sends them all at once).
func (s *SuiteService) List(ctx context.Context, projectID string, opts ...option.RequestOption) ([]Suite, error) {
	ctx = transport.WithOptions(ctx, opts)
	p, err := transport.Call[shared.Page[Suite]](ctx, s.t, &transport.Request{Method: http.MethodGet,
		Route: routeSuites, Params: []string{projectID}})
	if err != nil {
		return nil, err
	}
	return p.Items, nil
}

// Create authors a suite and its test cases without running anything (no
// credits are spent); run it later with Runs.Create and the returned
// SuiteID. It is not retried once the request may have reached the service.
func (s *SuiteService) Create(ctx context.Context, projectID string, p CreateSuiteParams, opts ...option.RequestOption) (*SuiteCreated, error) {
	ctx = transport.WithOptions(ctx, opts)
	return transport.Call[SuiteCreated](ctx, s.t, &transport.Request{Method: http.MethodPost,
		Route: routeSuites, Params: []string{projectID}, Body: p, Class: transport.Write})
}

// Runs returns the suite's recent runs, newest first. p may be nil.
func (s *SuiteService) Runs(ctx context.Context, projectID, suiteID string, p *SuiteRunsParams, opts ...option.RequestOption) ([]Run, error) {
	ctx = transport.WithOptions(ctx, opts)
	var q []string
	if p != nil && p.Limit != 0 {
		if p.Limit < 1 || p.Limit > 100 {
			return nil, apierr.Invalid("limit", "limit must be between 1 and 100")
		}
		q = []string{"limit", strconv.Itoa(p.Limit)}
	}
	page, err := transport.Call[shared.Page[Run]](ctx, s.t, &transport.Request{Method: http.MethodGet,
		Route: routeSuiteRuns, Params: []string{projectID, suiteID}, Query: transport.Query(q...)})
	if err != nil {
		return nil, err
	}
	return page.Items, nil
}
