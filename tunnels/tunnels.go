package tunnels

import (
	"context"
	"net/http"

	"github.com/projectops/projectops-go/internal/svc"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/option"
)

// Service is the tunnels API. Use Client.Tunnels.
type Service struct{ t *transport.Transport }

func init() { svc.Register(newService) }

// NewService builds the tunnels service alone, from the options of
// projectops.NewClient: a program using only it links no other service.
func NewService(opts ...option.RequestOption) (*Service, error) {
	return svc.Standalone(opts, newService)
}

func newService(t *transport.Transport) *Service { return &Service{t: t} }

// tr is s's transport; nil for a nil s (a zero Client's Tunnels), which
// transport.Do refuses with a VALIDATION_ERROR instead of panicking.
func (s *Service) tr() *transport.Transport {
	if s == nil {
		return nil
	}
	return s.t
}

const (
	routeTunnels = "/projects/{projectId}/tunnels"
	routeClose   = "/projects/{projectId}/tunnels/{serverId}/close"
)

// Create creates (or revives) the tunnel for the server named p.Name,
// registering the server if missing, and returns a fresh grant. Every call
// rotates the secret: the previous grant stops working and its live
// session is disconnected. That is why Create is never retried once the
// request may have reached the service.
func (s *Service) Create(ctx context.Context, projectID string, p CreateParams, opts ...option.RequestOption) (*Grant, error) {
	ctx = transport.WithOptions(ctx, opts)
	g, err := transport.Call[Grant](ctx, s.tr(), &transport.Request{Method: http.MethodPost, Route: routeTunnels,
		Params: []string{projectID}, Body: p, Class: transport.Write})
	if g != nil {
		g.ProjectID = projectID
	}
	return g, err
}

// Close revokes the tunnel's grant: its public URL stops working at once
// and a live session is disconnected. The server record and its now dead
// url are kept, so a later Create revives the tunnel with the same slug.
// Closing a closed tunnel succeeds again, as does closing a server of the
// project that never had one; a server outside the project is NOT_FOUND.
func (s *Service) Close(ctx context.Context, projectID, serverID string, opts ...option.RequestOption) (*Closed, error) {
	ctx = transport.WithOptions(ctx, opts)
	return transport.Call[Closed](ctx, s.tr(), &transport.Request{Method: http.MethodPost, Route: routeClose,
		Params: []string{projectID, serverID}, Class: transport.Idempotent})
}
