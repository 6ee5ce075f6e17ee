package environments

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/internal/poll"
	"github.com/projectops/projectops-go/internal/svc"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// Service is the computer environments API. Use Client.Environments.
type Service struct {
	t *transport.Transport
	// sleep waits d or until ctx ends (WaitForBuild); tests replace it.
	sleep func(ctx context.Context, d time.Duration) error
}

func init() { svc.Register(newService) }

// NewService builds the environments service alone, from the options of
// projectops.NewClient: a program using only it links no other service.
func NewService(opts ...option.RequestOption) (*Service, error) {
	return svc.Standalone(opts, newService)
}

func newService(t *transport.Transport) *Service { return &Service{t: t, sleep: poll.Sleep} }

// tr is s's transport; nil for a nil s (a zero Client's Environments), which
// transport.Do refuses with a VALIDATION_ERROR instead of panicking.
func (s *Service) tr() *transport.Transport {
	if s == nil {
		return nil
	}
	return s.t
}

const (
	routeEnvironments = "/projects/{projectId}/computer-environments"
	routeEnvironment  = "/projects/{projectId}/computer-environments/{environmentId}"
	routeBuilds       = routeEnvironment + "/builds"
	routeBuild        = routeEnvironment + "/build"
	routePromote      = routeEnvironment + "/promote"
	routeUse          = routeEnvironment + "/use"
	routeReset        = "/projects/{projectId}/computer/reset"
)

// List returns one page of the environments the caller sees in the project:
// their own personal drafts plus the project-shared ones. p may be nil.
func (s *Service) List(ctx context.Context, projectID string, p *ListParams, opts ...option.RequestOption) (*shared.Page[Environment], error) {
	ctx = transport.WithOptions(ctx, opts)
	return s.page(ctx, projectID, pager.Copy(p))
}

// All iterates over every environment List would page through, starting at
// p.Cursor. p is copied: changing it later does not affect the iterator.
func (s *Service) All(ctx context.Context, projectID string, p *ListParams, opts ...option.RequestOption) iter.Seq2[Environment, error] {
	ctx = transport.KeepOptions(ctx, opts)
	params := pager.Copy(p)
	return pager.Seq(ctx, params.Cursor, func(ctx context.Context, cursor string) (*shared.Page[Environment], error) {
		q := params
		q.Cursor = cursor
		return s.page(ctx, projectID, q)
	})
}

func (s *Service) page(ctx context.Context, projectID string, p ListParams) (*shared.Page[Environment], error) {
	return transport.Call[shared.Page[Environment]](ctx, s.tr(), &transport.Request{Method: http.MethodGet,
		Route: routeEnvironments, Params: []string{projectID}, Query: pageQuery(p)})
}

func pageQuery(p ListParams) url.Values {
	limit := ""
	if p.Limit != 0 {
		limit = strconv.Itoa(p.Limit)
	}
	return transport.Query("cursor", p.Cursor, "limit", limit)
}

// Get returns an environment with its Dockerfile, sharing and latest build.
// An environment of another project, or another user's personal draft, is
// NOT_FOUND.
func (s *Service) Get(ctx context.Context, projectID, environmentID string, opts ...option.RequestOption) (*Environment, error) {
	ctx = transport.WithOptions(ctx, opts)
	return transport.Call[Environment](ctx, s.tr(), &transport.Request{Method: http.MethodGet,
		Route: routeEnvironment, Params: []string{projectID, environmentID}})
}

// Create creates a personal draft (sharing "user") from a Dockerfile. It must
// be built before a computer can boot from it. A Dockerfile the service
// cannot build (see CreateParams) is refused with VALIDATION_ERROR. Create
// is not retried once the request may have reached the service (a retry
// could create a duplicate).
func (s *Service) Create(ctx context.Context, projectID string, p CreateParams, opts ...option.RequestOption) (*Environment, error) {
	ctx = transport.WithOptions(ctx, opts)
	return transport.Call[Environment](ctx, s.tr(), &transport.Request{Method: http.MethodPost,
		Route: routeEnvironments, Params: []string{projectID}, Body: p, Class: transport.Write})
}

// Update changes the name and/or Dockerfile. A Dockerfile the service
// cannot build (see CreateParams) is refused with VALIDATION_ERROR, as
// Create refuses it; a new one takes effect on computers only after Build.
// Any member may edit a project-shared environment. Setting the same values
// twice has the same effect as once, so Update is retried like a read.
func (s *Service) Update(ctx context.Context, projectID, environmentID string, p UpdateParams, opts ...option.RequestOption) (*Environment, error) {
	ctx = transport.WithOptions(ctx, opts)
	return transport.Call[Environment](ctx, s.tr(), &transport.Request{Method: http.MethodPatch,
		Route: routeEnvironment, Params: []string{projectID, environmentID}, Body: p, Class: transport.Idempotent})
}

// Delete deletes an environment permanently; computers booted from it fall
// back to the base image. Deleting a project-shared environment needs
// project admin. Delete is not retried after it may have run, so a retry
// never turns a success into NOT_FOUND.
func (s *Service) Delete(ctx context.Context, projectID, environmentID string, opts ...option.RequestOption) (*Deleted, error) {
	ctx = transport.WithOptions(ctx, opts)
	return transport.Call[Deleted](ctx, s.tr(), &transport.Request{Method: http.MethodDelete,
		Route: routeEnvironment, Params: []string{projectID, environmentID}, Class: transport.Write})
}

// Build starts a build of the environment's current Dockerfile and returns
// at once (HTTP 202); follow it with WaitForBuild. Any member may build a
// project-shared environment. Each call creates a build record, so Build is
// not retried once the request may have run.
func (s *Service) Build(ctx context.Context, projectID, environmentID string, opts ...option.RequestOption) (*BuildStarted, error) {
	ctx = transport.WithOptions(ctx, opts)
	return transport.Call[BuildStarted](ctx, s.tr(), &transport.Request{Method: http.MethodPost,
		Route: routeBuild, Params: []string{projectID, environmentID}, Class: transport.Write})
}

// ListBuilds returns one page of the environment's builds, newest first,
// each with its status and capped log preview. p may be nil.
func (s *Service) ListBuilds(ctx context.Context, projectID, environmentID string, p *ListParams, opts ...option.RequestOption) (*shared.Page[Build], error) {
	ctx = transport.WithOptions(ctx, opts)
	return s.buildsPage(ctx, projectID, environmentID, pager.Copy(p))
}

// AllBuilds iterates over the environment's builds, newest first.
func (s *Service) AllBuilds(ctx context.Context, projectID, environmentID string, p *ListParams, opts ...option.RequestOption) iter.Seq2[Build, error] {
	ctx = transport.KeepOptions(ctx, opts)
	params := pager.Copy(p)
	return pager.Seq(ctx, params.Cursor, func(ctx context.Context, cursor string) (*shared.Page[Build], error) {
		q := params
		q.Cursor = cursor
		return s.buildsPage(ctx, projectID, environmentID, q)
	})
}

func (s *Service) buildsPage(ctx context.Context, projectID, environmentID string, p ListParams) (*shared.Page[Build], error) {
	return transport.Call[shared.Page[Build]](ctx, s.tr(), &transport.Request{Method: http.MethodGet,
		Route: routeBuilds, Params: []string{projectID, environmentID}, Query: pageQuery(p)})
}

// Boot attaches the environment to the caller's computer in the project and
// re-provisions the computer from the environment's pinned image: whatever
// was installed on it is wiped. The environment needs a ready build whose
// provider matches the computer's. Otherwise the service refuses with 400
// VALIDATION_ERROR and a message, with no machine-readable reason, so
// check the build first (ListBuilds, WaitForBuild) rather than the error. Boot
// is not retried once the request may have run (it wipes the computer each
// time).
func (s *Service) Boot(ctx context.Context, projectID, environmentID string, opts ...option.RequestOption) (*ComputerAttached, error) {
	ctx = transport.WithOptions(ctx, opts)
	return transport.Call[ComputerAttached](ctx, s.tr(), &transport.Request{Method: http.MethodPost,
		Route: routeUse, Params: []string{projectID, environmentID}, Class: transport.Write})
}

// Reset resets the caller's computer in the project to its current image,
// wiping its mutable state. It is not retried once the request may have run.
func (s *Service) Reset(ctx context.Context, projectID string, opts ...option.RequestOption) (*ComputerReset, error) {
	ctx = transport.WithOptions(ctx, opts)
	return transport.Call[ComputerReset](ctx, s.tr(), &transport.Request{Method: http.MethodPost,
		Route: routeReset, Params: []string{projectID}, Class: transport.Write})
}

// Share promotes a personal draft to a project-shared environment; it needs
// project admin, who can share any draft of the project. Sharing an already shared environment changes nothing, so
// Share is retried like a read.
func (s *Service) Share(ctx context.Context, projectID, environmentID string, opts ...option.RequestOption) (*Environment, error) {
	ctx = transport.WithOptions(ctx, opts)
	return transport.Call[Environment](ctx, s.tr(), &transport.Request{Method: http.MethodPost,
		Route: routePromote, Params: []string{projectID, environmentID}, Class: transport.Idempotent})
}
