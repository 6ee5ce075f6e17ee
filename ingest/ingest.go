package ingest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/svc"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// Service is the eval-ingest API. Use Client.Ingest.
type Service struct{ t *transport.Transport }

func init() { svc.Register(newService) }

// NewService builds the ingest service alone, from the options of
// projectops.NewClient: a program using only it links no other service.
func NewService(opts ...option.RequestOption) (*Service, error) {
	return svc.Standalone(opts, newService)
}

func newService(t *transport.Transport) *Service { return &Service{t: t} }

// tr is s's transport; nil for a nil s (a zero Client's Ingest), which
// transport.Do refuses with a VALIDATION_ERROR instead of panicking.
func (s *Service) tr() *transport.Transport {
	if s == nil {
		return nil
	}
	return s.t
}

// DefaultProject is the project alias for the API key's organization's
// default project.
const DefaultProject = "default"

// Routes, relative to the base URL.
const (
	routeReport    = "/projects/{projectId}/eval-ingest/report"
	routeStart     = "/projects/{projectId}/eval-ingest/runs/start"
	routeAppend    = "/projects/{projectId}/eval-ingest/runs/iterations"
	routeFinalize  = "/projects/{projectId}/eval-ingest/runs/finalize"
	routeUploadURL = "/projects/{projectId}/eval-ingest/artifacts/upload-url"
	// routeUpload only names artifact uploads in errors and logs: the
	// minted URL carries a capability token and is never shown.
	routeUpload = "/eval-ingest/upload"
)

// MaxBodyBytes is the largest ingest request body the service takes: the
// 1 MiB its gateway allows any request body of the API, checked before
// anything else (the ingest routes' own 6 MiB and their backend's 5 MiB
// sit behind it). A larger body is refused with VALIDATION_ERROR.
const MaxBodyBytes = 1 << 20

// Report creates a run from finished results and finalizes it in one call.
// It is retried on 429, 5xx and network errors: the service reuses the run
// named by p.ExternalRunID, so a repeat never duplicates it. A run the
// service would refuse whole (no SuiteName or ExternalRunID, an
// ExternalRunID over 256 characters, a MinimumPassRate outside 0-100) is a
// VALIDATION_ERROR naming the field, sent nowhere.
func (s *Service) Report(ctx context.Context, projectID string, p ReportParams, opts ...option.RequestOption) (*RunResult, error) {
	ctx = transport.WithOptions(ctx, opts)
	if err := p.RunParams.check(); err != nil {
		return nil, err
	}
	run, err := p.RunParams.withHostConfigHash()
	if err != nil {
		return nil, err
	}
	p.RunParams = run
	if p.Results == nil { // an empty run ("results": [], never null)
		p.Results = []Result{}
	}
	res, err := s.run(ctx, routeReport, projectID, p, nil, nil, nil, nil)
	scrubValues(err, clientRedactor(s.redact).withValues(run.secrets()...))
	return res, err
}

// StartRun creates the run named by p.ExternalRunID, or reuses it (Reused
// set, with its current status). Retried like Report. Report and StartRun
// send p.HostConfig as the eval wire carries it (without serverIds,
// optionalServerIds, serverConnectionOverrides and computer) with its
// HostConfigHash computed. StartRun refuses a run as Report does.
func (s *Service) StartRun(ctx context.Context, projectID string, p RunParams, opts ...option.RequestOption) (*RunResult, error) {
	ctx = transport.WithOptions(ctx, opts)
	if err := p.check(); err != nil {
		return nil, err
	}
	p, err := p.withHostConfigHash()
	if err != nil {
		return nil, err
	}
	res, err := s.run(ctx, routeStart, projectID, p, nil, nil, nil, nil)
	scrubValues(err, clientRedactor(s.redact).withValues(p.secrets()...))
	return res, err
}

// AppendIterations adds results to a started run. Results whose
// ExternalIterationID the run already holds are skipped, so a retried batch
// never duplicates rows; it is retried like Report. A result without an
// ExternalIterationID is sent with one drawn for this call (p is not
// changed), else a retry after a lost answer would store it twice.
func (s *Service) AppendIterations(ctx context.Context, projectID string, p AppendParams, opts ...option.RequestOption) (*AppendResult, error) {
	ctx = transport.WithOptions(ctx, opts)
	p.Results = withIterationIDs(p.Results)
	return s.appendRaw(ctx, projectID, p, nil, nil)
}

// withIterationIDs is rs with every missing ExternalIterationID filled in
// (batch-<random>-<n>, unique to this batch), copied only when one is
// missing.
func withIterationIDs(rs []Result) []Result {
	if !slices.ContainsFunc(rs, func(r Result) bool { return r.ExternalIterationID == "" }) {
		return rs
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	prefix := "batch-" + hex.EncodeToString(b[:]) + "-"
	out := slices.Clone(rs)
	for i := range out {
		if out[i].ExternalIterationID == "" {
			out[i].ExternalIterationID = prefix + strconv.Itoa(i+1)
		}
	}
	return out
}

// FinalizeRun computes the run's status, result and summary from its pass
// criteria. Finalizing twice answers the same. Retried like Report.
func (s *Service) FinalizeRun(ctx context.Context, projectID string, p FinalizeParams, opts ...option.RequestOption) (*RunResult, error) {
	ctx = transport.WithOptions(ctx, opts)
	return s.run(ctx, routeFinalize, projectID, p, nil, nil, nil, nil)
}

// UploadURL mints a short-lived, single-use URL for one artifact (a
// widget's HTML, a raw JUnit XML, Jest or Vitest file); send it with
// UploadArtifact. A failure that may be passing (a 5xx, a lost answer) is
// retried, as the service's own reporter does: a second URL minted is
// harmless.
func (s *Service) UploadURL(ctx context.Context, projectID string, opts ...option.RequestOption) (*UploadURL, error) {
	ctx = transport.WithOptions(ctx, opts)
	out, err := transport.Call[answer[UploadURL]](ctx, s.tr(), &transport.Request{Method: http.MethodPost, Route: routeUploadURL,
		Params: []string{projectID}, Body: struct{}{}, Class: transport.Idempotent, Legacy: true, Scrub: s.scrub})
	if err != nil {
		return nil, s.shown(err)
	}
	if !out.Result.OK || out.Result.UploadURL == "" {
		return nil, notOK(s.redact, routeUploadURL, out)
	}
	return &out.Result, nil
}

// UploadArtifact sends body (at most MaxArtifactBytes) to a URL minted by
// UploadURL, without the API key, and returns the stored artifact's id.
// The URL works once: an upload the server answered as failed (429, 5xx)
// is retried to it, as the service's own reporter retries, but not one
// whose answer may have been lost (the URL may be used up: mint another).
// The URL is a credential: an error's Path names it by its route, "/eval-ingest/upload",
// never by the URL itself; one that is not an absolute http or https URL
// is a VALIDATION_ERROR (field uploadUrl), sent nowhere. A nil body uploads an empty artifact. A success
// answer without a storageId is ErrNoStorageID, never an Upload without one.
func (s *Service) UploadArtifact(ctx context.Context, uploadURL, contentType string, body io.Reader, opts ...option.RequestOption) (*Upload, error) {
	ctx = transport.WithOptions(ctx, opts)
	if err := checkUploadURL(uploadURL); err != nil {
		return nil, err
	}
	var data []byte
	if body != nil { // nil sends an empty artifact, as http.NewRequest does
		var err error
		if data, err = io.ReadAll(io.LimitReader(body, MaxArtifactBytes+1)); err != nil {
			return nil, err
		}
	}
	if len(data) > MaxArtifactBytes {
		return nil, apierr.Invalid("body", "artifact exceeds the upload size limit")
	}
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	up, err := transport.Call[Upload](ctx, s.tr(), &transport.Request{Method: http.MethodPost, Route: routeUpload,
		URL: uploadURL, RawBody: data, ContentType: contentType, Public: true, Class: transport.Upload})
	if err != nil {
		return nil, err
	}
	if up.StorageID == "" {
		// The service's reporter takes only a named blob as stored: an
		// id-less answer would leave a snapshot pointing nowhere.
		return nil, fmt.Errorf("%w (%s)", ErrNoStorageID, routeUpload)
	}
	return up, nil
}

// checkUploadURL refuses what can never be a URL UploadURL minted (empty,
// relative, not http or https, unparsable) before the transport sees it:
// a relative one would otherwise go to whatever the RoundTripper makes of
// it. The URL is a capability, so the error never shows it.
func checkUploadURL(raw string) error {
	if raw == "" {
		return apierr.Invalid("uploadUrl", "uploadUrl is required")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return apierr.Invalid("uploadUrl", "uploadUrl is not a valid URL")
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return apierr.Invalid("uploadUrl", "uploadUrl must be an absolute http or https URL, as UploadURL mints")
	}
	return nil
}

// ErrNoStorageID is returned by UploadArtifact when the upload URL answers
// a success without a storageId: nothing names the artifact, so it counts
// as not stored (the URL is used up: mint another to retry).
var ErrNoStorageID = errors.New("projectops: ingest: upload answered without a storageId; the artifact is not stored")

// MaxArtifactBytes caps one raw artifact upload (32 MiB).
const MaxArtifactBytes = 32 << 20

// run posts body to one of the run routes. raw, when non-nil, is body
// already encoded, and release (when set) is called once nothing reads
// it any more (see transport.Request.Release); observe sees each
// attempt's status, netErr each attempt's network error (see
// transport.Request.OnNetError).
func (s *Service) run(ctx context.Context, route, projectID string, body any, raw []byte, release func(), observe func(int), netErr func(error)) (*RunResult, error) {
	out, err := transport.Call[answer[RunResult]](ctx, s.tr(), &transport.Request{Method: http.MethodPost, Route: route,
		Params: []string{projectID}, Body: body, Wire: wireJSON, RawBody: raw, Release: release, Class: transport.Idempotent,
		OnAttempt: observe, OnNetError: netErr, Legacy: true, Scrub: s.scrub})
	if err != nil {
		return nil, s.shown(err)
	}
	if !out.Result.OK {
		return nil, notOK(s.redact, route, out)
	}
	return &out.Result, nil
}

// appendRaw posts body, or raw when non-nil (body already encoded), to
// the append route. raw must never change afterwards: the transport's
// readers of it may outlive the call. To reuse it, use appendChunk.
func (s *Service) appendRaw(ctx context.Context, projectID string, body any, raw []byte, observe func(int)) (*AppendResult, error) {
	return s.appendChunk(ctx, projectID, body, raw, nil, observe)
}

// appendChunk is appendRaw whose raw may change again once release (when
// set) is called (see transport.Request.Release).
func (s *Service) appendChunk(ctx context.Context, projectID string, body any, raw []byte, release func(), observe func(int)) (*AppendResult, error) {
	out, err := transport.Call[answer[AppendResult]](ctx, s.tr(), &transport.Request{Method: http.MethodPost, Route: routeAppend,
		Params: []string{projectID}, Body: body, RawBody: raw, Release: release, Class: transport.Idempotent, OnAttempt: observe,
		Legacy: true, Scrub: s.scrub})
	if err != nil {
		return nil, s.shown(err)
	}
	if !out.Result.OK {
		return nil, notOK(s.redact, routeAppend, out)
	}
	return &out.Result, nil
}

// answer is a run route's 2xx answer: the result, and the code, message
// and billing limit that an ok:false answer may carry instead.
type answer[T any] struct {
	Result T
	Body   apierr.Body
	raw    []byte // kept only for an answer with a code
}

// UnmarshalJSON reads both views of the one object.
func (a *answer[T]) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &a.Result); err != nil {
		return err
	}
	_ = json.Unmarshal(b, &a.Body) // a result without a code leaves it empty
	if a.Body.Code != "" || bytes.Contains(b, []byte(`"error"`)) || bytes.Contains(b, []byte(`"message"`)) {
		a.raw = bytes.Clone(b) // an ok:false answer's code or legacy text
	}
	return nil
}

// ErrNotOK is returned when the service answers 2xx without "ok": true
// (its legacy failure envelope). When that answer names a code, the error
// also matches it: errors.Is(err, projectops.ErrBillingLimitReached), and
// errors.As gives the *shared.Error with its Billing limit.
var ErrNotOK = errors.New("projectops: ingest: service answered without ok:true")

// notOK is the error for an answer without ok:true; redact removes the key
// from its text first, as the transport does for error bodies (a backend
// may reflect it into the message).
func notOK[T any](redact func(string) string, route string, a *answer[T]) error {
	raw := []byte(redact(string(a.raw)))
	scrub := func(v string) string { return credFields(string(clientRedactor(redact).text(v))) }
	var e *shared.Error
	if a.Body.Code != "" {
		b, ok := apierr.DecodeBody(raw)
		if !ok {
			b = apierr.Body{Code: a.Body.Code}
		}
		e = apierr.FromBody(http.StatusOK, b)
		apierr.AddBilling(e, raw)
		apierr.Redact(e, scrub)
	} else if le, ok := apierr.Legacy(http.StatusOK, raw, scrub); ok {
		e = le // {ok: false, error: "…"}: its text, as the service's reporter reads it
	} else {
		return fmt.Errorf("%w (%s)", ErrNotOK, route)
	}
	e.Method, e.Path = http.MethodPost, route
	if apierr.RejectsCaseID(e) {
		return fmt.Errorf("%w: %w: %w", ErrNotOK, ErrIncompatibleBackend, e)
	}
	return fmt.Errorf("%w: %w", ErrNotOK, e)
}

// ErrIncompatibleBackend is a reporting backend that refuses caseId as a
// field it does not know: older than this SDK, it refuses every result
// whole (nothing is stored), and no retry or resume changes that. Point
// the client at a current service. The error also wraps the service's
// *shared.Error.
var ErrIncompatibleBackend = errors.New("projectops: ingest: the reporting backend refuses caseId, a field this SDK sends (it is older than the SDK needs); nothing was stored")

// shown is err, an ingest call's failure, as callers see it: a backend
// that refuses caseId is named as such.
func (s *Service) shown(err error) error {
	if e, ok := errors.AsType[*shared.Error](err); ok && apierr.RejectsCaseID(e) {
		return fmt.Errorf("%w: %w", ErrIncompatibleBackend, err)
	}
	return err
}

// scrub redacts what the service wrote in an error with the reporter's
// rules and credential fields: a backend may quote the request body, which
// carries credentials (replay configs' tokens, host config headers).
func (s *Service) scrub(v string) string { return credFields(string(clientRedactor(s.redact).text(v))) }

// redact is the client's key redaction, in any spelling, for text or a
// JSON document (which stays JSON) about to be sent or shown.
func (s *Service) redact(v string) string { return s.tr().RedactJSON(v) }
