package evals

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strconv"
	"strings"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// MaxIdempotencyKey is the longest RunParams.IdempotencyKey the service
// takes, in UTF-16 code units (characters, for most text).
const MaxIdempotencyKey = 256

// RunService is the eval runs API. Use Client.Evals.Runs.
type RunService struct{ t *transport.Transport }

// tr is s's transport; nil for a nil s (a zero Service's Runs), which
// transport.Do refuses with a VALIDATION_ERROR instead of panicking.
func (s *RunService) tr() *transport.Transport {
	if s == nil {
		return nil
	}
	return s.t
}

// Create starts a run and returns at once (202) with its id; the run
// executes in the background. The request carries an idempotency key
// (p.IdempotencyKey, else one generated for this call) reused on each
// retry, so retries are safe: the service answers a repeated key with the
// run it already started, marked Deduped. The key goes out as a header
// (see option.WithIdempotencyKey) and, when it is p's, in the body; a key
// that cannot be a header the service reads (over 256 bytes, blank, with
// a control character) goes in the body alone. Given both, p's key and
// an option.WithIdempotencyKey must be the same key (a VALIDATION_ERROR
// otherwise).
// Validation and quota errors (projectops.ErrConcurrentRunLimit, which is
// not retried) surface here.
func (s *RunService) Create(ctx context.Context, projectID string, p RunParams, opts ...option.RequestOption) (*RunCreated, error) {
	// The options go into ctx before any check below can refuse the call,
	// so a refusal resets WithResponseInto's target too. A key p gives
	// that the service would read as a header goes out as one (an
	// explicit option still wins); any other key travels in the body
	// alone, with no generated header key to override it.
	header := option.WithIdempotencyKey(p.IdempotencyKey)
	bodyKeyOnly := p.IdempotencyKey != "" && header(new(option.Config)) != nil
	callOpts := opts
	if p.IdempotencyKey != "" && !bodyKeyOnly {
		callOpts = append([]option.RequestOption{header}, opts...)
	}
	ctx = transport.WithOptions(ctx, callOpts)
	if wire.UTF16Len(p.IdempotencyKey) > MaxIdempotencyKey { // as the service's schema counts: UTF-16 code units
		return nil, apierr.Invalid("idempotencyKey", fmt.Sprintf("idempotencyKey must be at most %d characters", MaxIdempotencyKey))
	}
	if err := checkMatch("matchOptionsOverride", p.MatchOptionsOverride); err != nil {
		return nil, err
	}
	if err := checkTestsMatch(p.Tests); err != nil {
		return nil, err
	}
	if p.IdempotencyKey != "" && len(opts) > 0 {
		// Two keys for one call: the service would read the header's and
		// ignore the body's, so a caller deduplicating by p's key would
		// start a second run.
		if c, err := option.Apply(opts); err == nil && c.IdempotencyKey != "" && c.IdempotencyKey != p.IdempotencyKey {
			return nil, apierr.Invalid("idempotencyKey", "RunParams.IdempotencyKey and option.WithIdempotencyKey name different keys")
		}
	}
	req := &transport.Request{Method: http.MethodPost, Route: routeRuns, Params: []string{projectID}, Body: p,
		Wire: wireJSON, Class: transport.Write, IdempotencyKey: true}
	if len(p.ModelAPIKeys) > 0 {
		req.Secrets, req.Scrub = p.ModelAPIKeys.secrets(), wire.SecretFields
	}
	if bodyKeyOnly {
		// Retrying stays safe as the service reads the body's key (its
		// API of 2026-08-22 on).
		req.IdempotencyKey, req.Class = false, transport.Idempotent
	}
	return transport.Call[RunCreated](ctx, s.tr(), req)
}

// Get returns the run's status, result and summary.
func (s *RunService) Get(ctx context.Context, projectID, runID string, opts ...option.RequestOption) (*Run, error) {
	ctx = transport.WithOptions(ctx, opts)
	return transport.Call[Run](ctx, s.tr(), &transport.Request{Method: http.MethodGet, Route: routeRun,
		Params: []string{projectID, runID}})
}

// Cancel requests cancellation of an in-flight run and returns it: its
// pending and running iterations become cancelled and in-flight tool calls
// are stopped. Cancelling a cancelled run succeeds without change; a run
// already completed, failed or timed out gives 409, and the error matches
// projectops.ErrConflict whatever code the service put on it (its source
// raises this refusal with VALIDATION_ERROR, which today also turns the
// status into 400; that answer, recognised by its message, matches it
// too, and still matches the code it came with).
func (s *RunService) Cancel(ctx context.Context, projectID, runID string, opts ...option.RequestOption) (*Run, error) {
	ctx = transport.WithOptions(ctx, opts)
	run, err := transport.Call[Run](ctx, s.tr(), &transport.Request{Method: http.MethodPost, Route: routeRunCancel,
		Params: []string{projectID, runID}, Class: transport.Idempotent})
	if e, ok := errors.AsType[*shared.Error](err); ok && runAlreadyFinished(e) {
		return nil, &alreadyFinished{e}
	}
	return run, err
}

// runAlreadyFinished reports the service's refusal to cancel a finished
// run made with VALIDATION_ERROR: a 409 with that code, or the 400 the
// service sends it as today, known by its message.
func runAlreadyFinished(e *shared.Error) bool {
	return e.Code == shared.CodeValidation && (e.StatusCode == http.StatusConflict ||
		e.StatusCode == http.StatusBadRequest && strings.HasPrefix(e.Message, "Cannot cancel a run that already"))
}

// alreadyFinished is that refusal: it reads and unwraps as the service's
// error, and also matches projectops.ErrConflict.
type alreadyFinished struct{ err *shared.Error }

func (e *alreadyFinished) Error() string { return e.err.Error() }

// Is matches projectops.ErrConflict, and any sentinel that asks for
// CONFLICT alone (sentinels match by code).
func (e *alreadyFinished) Is(target error) bool {
	t, ok := target.(*shared.Error)
	return ok && t.Code == shared.CodeConflict && t.Reason == "" && (t.StatusCode == 0 || t.StatusCode == e.err.StatusCode)
}

func (e *alreadyFinished) Unwrap() error { return e.err }

// ListIterations returns one page of the run's iterations. p may be nil.
func (s *RunService) ListIterations(ctx context.Context, projectID, runID string, p *IterationsParams, opts ...option.RequestOption) (*shared.Page[Iteration], error) {
	ctx = transport.WithOptions(ctx, opts)
	v := pager.Copy(p)
	if err := apierr.CheckLimit(v.Limit, MaxIterationsLimit); err != nil {
		return nil, err
	}
	return s.iterPage(ctx, projectID, runID, v.Limit, v.Cursor)
}

// AllIterations iterates over the run's iterations from p.Cursor on, page
// by page (p.Limit per page). It copies p, so later changes to it have no
// effect.
func (s *RunService) AllIterations(ctx context.Context, projectID, runID string, p *IterationsParams, opts ...option.RequestOption) iter.Seq2[Iteration, error] {
	ctx = transport.KeepOptions(ctx, opts)
	v := pager.Copy(p)
	if err := apierr.CheckLimit(v.Limit, MaxIterationsLimit); err != nil {
		return pager.Fail[Iteration](err)
	}
	return pager.Seq(ctx, v.Cursor, func(ctx context.Context, cursor string) (*shared.Page[Iteration], error) {
		return s.iterPage(ctx, projectID, runID, v.Limit, cursor)
	})
}

func (s *RunService) iterPage(ctx context.Context, projectID, runID string, limit int, cursor string) (*shared.Page[Iteration], error) {
	l := ""
	if limit > 0 {
		l = strconv.Itoa(limit)
	}
	return transport.Call[shared.Page[Iteration]](ctx, s.tr(), &transport.Request{Method: http.MethodGet,
		Route: routeIterations, Params: []string{projectID, runID},
		Query: transport.Query("limit", l, "cursor", cursor)})
}

// Trace returns an iteration's trace envelope. An iteration that finished
// without a stored trace gives projectops.ErrTraceNotAvailable (404); its
// Steps still answer.
func (s *RunService) Trace(ctx context.Context, projectID, runID, iterationID string, opts ...option.RequestOption) (*Trace, error) {
	ctx = transport.WithOptions(ctx, opts)
	return transport.Call[Trace](ctx, s.tr(), &transport.Request{Method: http.MethodGet, Route: routeTrace,
		Params: []string{projectID, runID, iterationID}})
}

// ListSteps returns a page of the iteration's step verdicts, one per
// authored step, in order.
func (s *RunService) ListSteps(ctx context.Context, projectID, runID, iterationID string, p *StepsParams, opts ...option.RequestOption) (*shared.Page[StepResult], error) {
	ctx = transport.WithOptions(ctx, opts)
	return s.stepsPage(ctx, projectID, runID, iterationID, pager.Copy(p).Cursor)
}

// AllSteps iterates over the iteration's step verdicts from p.Cursor on,
// in order, following pages if the service sends more than one.
func (s *RunService) AllSteps(ctx context.Context, projectID, runID, iterationID string, p *StepsParams, opts ...option.RequestOption) iter.Seq2[StepResult, error] {
	ctx = transport.KeepOptions(ctx, opts)
	return pager.Seq(ctx, pager.Copy(p).Cursor, func(ctx context.Context, cursor string) (*shared.Page[StepResult], error) {
		return s.stepsPage(ctx, projectID, runID, iterationID, cursor)
	})
}

func (s *RunService) stepsPage(ctx context.Context, projectID, runID, iterationID, cursor string) (*shared.Page[StepResult], error) {
	return transport.Call[shared.Page[StepResult]](ctx, s.tr(), &transport.Request{Method: http.MethodGet,
		Route: routeSteps, Params: []string{projectID, runID, iterationID},
		Query: transport.Query("cursor", cursor)})
}
