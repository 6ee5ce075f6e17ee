package servers

import (
	"context"
	"iter"
	"net/http"

	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/internal/svc"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// Service is the servers API. Use Client.Servers.
type Service struct{ t *transport.Transport }

func init() { svc.Register(newService) }

// NewService builds the servers service alone, from the options of
// projectops.NewClient: a program using only it links no other service.
func NewService(opts ...option.RequestOption) (*Service, error) {
	return svc.Standalone(opts, newService)
}

func newService(t *transport.Transport) *Service { return &Service{t: t} }

// tr is s's transport; nil for a nil s (a zero Client's Servers), which
// transport.Do refuses with a VALIDATION_ERROR instead of panicking.
func (s *Service) tr() *transport.Transport {
	if s == nil {
		return nil
	}
	return s.t
}

const routeServers = "/projects/{projectId}/servers"

// List returns one page of the project's saved servers (the service
// currently sends them all at once). Their ids are the serverIds of every
// server operation. p may be nil.
func (s *Service) List(ctx context.Context, projectID string, p *ListParams, opts ...option.RequestOption) (*shared.Page[Server], error) {
	ctx = transport.WithOptions(ctx, opts)
	return s.page(ctx, projectID, pager.Copy(p).Cursor)
}

// All iterates over the project's saved servers from p.Cursor on.
func (s *Service) All(ctx context.Context, projectID string, p *ListParams, opts ...option.RequestOption) iter.Seq2[Server, error] {
	ctx = transport.KeepOptions(ctx, opts)
	return pager.Seq(ctx, pager.Copy(p).Cursor, func(ctx context.Context, cursor string) (*shared.Page[Server], error) {
		return s.page(ctx, projectID, cursor)
	})
}

func (s *Service) page(ctx context.Context, projectID, cursor string) (*shared.Page[Server], error) {
	return transport.Call[shared.Page[Server]](ctx, s.tr(), &transport.Request{Method: http.MethodGet, Route: routeServers,
		Params: []string{projectID}, Query: transport.Query("cursor", cursor)})
}
