// Package hosts manages a project's hosts: named model-plus-capability
// profiles that chats and eval suites run against. A host is created from a
// built-in template (seeded from the host catalog) or from a full config.
package hosts

import (
	"context"
	"iter"
	"net/http"

	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/internal/svc"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// Service is the hosts API. Use Client.Hosts.
type Service struct{ t *transport.Transport }

func init() { svc.Register(newService) }

// NewService builds the hosts service alone, from the options of
// projectops.NewClient: a program using only it links no other service.
func NewService(opts ...option.RequestOption) (*Service, error) {
	return svc.Standalone(opts, newService)
}

func newService(t *transport.Transport) *Service { return &Service{t: t} }

// tr is s's transport; nil for a nil s (a zero Client's Hosts), which
// transport.Do refuses with a VALIDATION_ERROR instead of panicking.
func (s *Service) tr() *transport.Transport {
	if s == nil {
		return nil
	}
	return s.t
}

const (
	routeHosts = "/projects/{projectId}/hosts"
	routeHost  = "/projects/{projectId}/hosts/{hostId}"
)

// List returns one page of the project's hosts (the service currently
// sends them all at once). p may be nil.
func (s *Service) List(ctx context.Context, projectID string, p *ListParams, opts ...option.RequestOption) (*shared.Page[Host], error) {
	ctx = transport.WithOptions(ctx, opts)
	return s.page(ctx, projectID, pager.Copy(p).Cursor)
}

// All iterates over the project's hosts from p.Cursor on.
func (s *Service) All(ctx context.Context, projectID string, p *ListParams, opts ...option.RequestOption) iter.Seq2[Host, error] {
	ctx = transport.KeepOptions(ctx, opts)
	return pager.Seq(ctx, pager.Copy(p).Cursor, func(ctx context.Context, cursor string) (*shared.Page[Host], error) {
		return s.page(ctx, projectID, cursor)
	})
}

func (s *Service) page(ctx context.Context, projectID, cursor string) (*shared.Page[Host], error) {
	return transport.Call[shared.Page[Host]](ctx, s.tr(), &transport.Request{Method: http.MethodGet, Route: routeHosts,
		Params: []string{projectID}, Query: transport.Query("cursor", cursor)})
}

// Get returns a host with its resolved config. A host of another project is
// NOT_FOUND.
func (s *Service) Get(ctx context.Context, projectID, hostID string, opts ...option.RequestOption) (*HostDetail, error) {
	ctx = transport.WithOptions(ctx, opts)
	return transport.Call[HostDetail](ctx, s.tr(), &transport.Request{Method: http.MethodGet, Route: routeHost,
		Params: []string{projectID, hostID}})
}

// Create creates a host from a template or a full config. It is not retried
// once the request may have reached the service (it is not idempotent).
func (s *Service) Create(ctx context.Context, projectID string, p CreateParams, opts ...option.RequestOption) (*HostDetail, error) {
	ctx = transport.WithOptions(ctx, opts) // first: a refusal below resets WithResponseInto's target too
	if err := p.Config.check(); err != nil {
		return nil, err
	}
	p.Config = p.Config.input()
	return transport.Call[HostDetail](ctx, s.tr(), &transport.Request{Method: http.MethodPost, Route: routeHosts,
		Params: []string{projectID}, Body: p, Class: transport.Write,
		Secrets: p.Config.secrets(), Scrub: wire.SecretFields})
}

// Update changes the fields set in p and leaves the others as they are; a
// Config replaces the whole config (see UpdateParams.Config).
func (s *Service) Update(ctx context.Context, projectID, hostID string, p UpdateParams, opts ...option.RequestOption) (*HostDetail, error) {
	ctx = transport.WithOptions(ctx, opts) // first: a refusal below resets WithResponseInto's target too
	if err := p.Config.check(); err != nil {
		return nil, err
	}
	p.Config = p.Config.input()
	return transport.Call[HostDetail](ctx, s.tr(), &transport.Request{Method: http.MethodPatch, Route: routeHost,
		Params: []string{projectID, hostID}, Body: p, Class: transport.Idempotent,
		Secrets: p.Config.secrets(), Scrub: wire.SecretFields})
}

// Delete deletes a host. A host still referenced by an eval suite or a
// chatbox is deleted only with p.Force; otherwise the service answers 400
// VALIDATION_ERROR (projectops.ErrValidation; the route has no 409). p may
// be nil. Delete is not retried after it may have run, so a retry never
// turns a success into NOT_FOUND.
func (s *Service) Delete(ctx context.Context, projectID, hostID string, p *DeleteParams, opts ...option.RequestOption) (*Deleted, error) {
	ctx = transport.WithOptions(ctx, opts)
	req := &transport.Request{Method: http.MethodDelete, Route: routeHost, Params: []string{projectID, hostID},
		Class: transport.Write}
	if p != nil && p.Force {
		req.Body = p
	}
	return transport.Call[Deleted](ctx, s.tr(), req)
}
