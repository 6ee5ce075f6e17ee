// Package catalog reads what a key can see: the account behind it, projects,
// chat sessions, chatboxes, the public host-compatibility catalog and the
// native tools of agent harnesses.
//
// Listings come two ways, as in every package of the SDK: ListX returns one
// page (continue with its NextCursor as the params' cursor), AllX returns
// an iterator over every item from the params' cursor on, fetching pages
// lazily.
//
// A program that needs only this package builds it with NewService and
// matches errors against shared's sentinels (shared.ErrUnauthorized and so
// on, the same values as the root package's): the root package imports
// every service and would link them all.
package catalog

import (
	"context"
	"iter"
	"net/http"
	"strconv"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/internal/svc"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// Service is the catalog API. Use Client.Catalog.
type Service struct{ t *transport.Transport }

func init() { svc.Register(newService) }

// NewService builds the catalog service alone, from the options of
// projectops.NewClient: a program using only it links no other service.
func NewService(opts ...option.RequestOption) (*Service, error) {
	return svc.Standalone(opts, newService)
}

func newService(t *transport.Transport) *Service { return &Service{t: t} }

// tr is s's transport; nil for a nil s (a zero Client's Catalog), which
// transport.Do refuses with a VALIDATION_ERROR instead of panicking.
func (s *Service) tr() *transport.Transport {
	if s == nil {
		return nil
	}
	return s.t
}

// Me returns the account the API key acts as.
func (s *Service) Me(ctx context.Context, opts ...option.RequestOption) (*Me, error) {
	ctx = transport.WithOptions(ctx, opts)
	return transport.Call[Me](ctx, s.tr(), &transport.Request{Method: http.MethodGet, Route: "/me"})
}

// ListProjects returns one page of the projects the caller can access in
// the key's organization (the service currently sends them all at once).
// p may be nil.
func (s *Service) ListProjects(ctx context.Context, p *ProjectsParams, opts ...option.RequestOption) (*shared.Page[Project], error) {
	ctx = transport.WithOptions(ctx, opts)
	params := pager.Copy(p)
	return s.projectsPage(ctx, params, params.Cursor)
}

// AllProjects iterates over every accessible project from p.Cursor on.
func (s *Service) AllProjects(ctx context.Context, p *ProjectsParams, opts ...option.RequestOption) iter.Seq2[Project, error] {
	ctx = transport.KeepOptions(ctx, opts)
	params := pager.Copy(p)
	return pager.Seq(ctx, params.Cursor, func(ctx context.Context, cursor string) (*shared.Page[Project], error) {
		return s.projectsPage(ctx, params, cursor)
	})
}

func (s *Service) projectsPage(ctx context.Context, p ProjectsParams, cursor string) (*shared.Page[Project], error) {
	return transport.Call[shared.Page[Project]](ctx, s.tr(), &transport.Request{Method: http.MethodGet, Route: "/projects",
		Query: transport.Query("organizationId", p.OrganizationID, "cursor", cursor)})
}

// ListChatSessions returns one page of chat sessions, newest activity first.
// Pass the page's NextCursor as Cursor for the next page. p may be nil.
func (s *Service) ListChatSessions(ctx context.Context, p *ChatSessionsParams, opts ...option.RequestOption) (*shared.Page[ChatSession], error) {
	ctx = transport.WithOptions(ctx, opts)
	params := pager.Copy(p)
	if err := apierr.CheckLimit(params.Limit, MaxChatSessionsLimit); err != nil {
		return nil, err
	}
	return s.chatSessionsPage(ctx, params)
}

// AllChatSessions iterates over every chat session matching p, starting
// at p.Cursor when set.
func (s *Service) AllChatSessions(ctx context.Context, p *ChatSessionsParams, opts ...option.RequestOption) iter.Seq2[ChatSession, error] {
	ctx = transport.KeepOptions(ctx, opts)
	params := pager.Copy(p)
	if err := apierr.CheckLimit(params.Limit, MaxChatSessionsLimit); err != nil {
		return pager.Fail[ChatSession](err)
	}
	return pager.Seq(ctx, params.Cursor, func(ctx context.Context, cursor string) (*shared.Page[ChatSession], error) {
		q := params
		q.Cursor = cursor
		return s.chatSessionsPage(ctx, q)
	})
}

func (s *Service) chatSessionsPage(ctx context.Context, p ChatSessionsParams) (*shared.Page[ChatSession], error) {
	limit := ""
	if p.Limit != 0 {
		limit = strconv.Itoa(p.Limit)
	}
	return transport.Call[shared.Page[ChatSession]](ctx, s.tr(), &transport.Request{Method: http.MethodGet, Route: "/chat-sessions",
		Query: transport.Query("projectId", p.ProjectID, "status", p.Status, "limit", limit, "before", p.Cursor)})
}

// HostCatalog returns the public host-compatibility catalog. It sends no
// key, so it works on a client built without one.
func (s *Service) HostCatalog(ctx context.Context, opts ...option.RequestOption) (*HostCatalog, error) {
	ctx = transport.WithOptions(ctx, opts)
	return transport.Call[HostCatalog](ctx, s.tr(), &transport.Request{Method: http.MethodGet, Route: "/host-catalog", Public: true})
}

// ListBuiltinTools returns one page of the native tools of an agent
// harness such as "claude-code". They are display-only and cannot be
// called. p may be nil.
func (s *Service) ListBuiltinTools(ctx context.Context, harnessID string, p *ListParams, opts ...option.RequestOption) (*shared.Page[BuiltinTool], error) {
	ctx = transport.WithOptions(ctx, opts)
	return s.builtinToolsPage(ctx, harnessID, pager.Copy(p).Cursor)
}

// AllBuiltinTools iterates over the native tools of an agent harness from
// p.Cursor on.
func (s *Service) AllBuiltinTools(ctx context.Context, harnessID string, p *ListParams, opts ...option.RequestOption) iter.Seq2[BuiltinTool, error] {
	ctx = transport.KeepOptions(ctx, opts)
	return pager.Seq(ctx, pager.Copy(p).Cursor, func(ctx context.Context, cursor string) (*shared.Page[BuiltinTool], error) {
		return s.builtinToolsPage(ctx, harnessID, cursor)
	})
}

func (s *Service) builtinToolsPage(ctx context.Context, harnessID, cursor string) (*shared.Page[BuiltinTool], error) {
	return transport.Call[shared.Page[BuiltinTool]](ctx, s.tr(), &transport.Request{Method: http.MethodGet,
		Route: "/harness/{harnessId}/builtin-tools", Params: []string{harnessID}, Query: transport.Query("cursor", cursor)})
}

// ListChatboxes returns one page of a project's published chatboxes. p may
// be nil.
func (s *Service) ListChatboxes(ctx context.Context, projectID string, p *ListParams, opts ...option.RequestOption) (*shared.Page[Chatbox], error) {
	ctx = transport.WithOptions(ctx, opts)
	return s.chatboxesPage(ctx, projectID, pager.Copy(p).Cursor)
}

// AllChatboxes iterates over a project's published chatboxes from p.Cursor
// on.
func (s *Service) AllChatboxes(ctx context.Context, projectID string, p *ListParams, opts ...option.RequestOption) iter.Seq2[Chatbox, error] {
	ctx = transport.KeepOptions(ctx, opts)
	return pager.Seq(ctx, pager.Copy(p).Cursor, func(ctx context.Context, cursor string) (*shared.Page[Chatbox], error) {
		return s.chatboxesPage(ctx, projectID, cursor)
	})
}

func (s *Service) chatboxesPage(ctx context.Context, projectID, cursor string) (*shared.Page[Chatbox], error) {
	return transport.Call[shared.Page[Chatbox]](ctx, s.tr(), &transport.Request{Method: http.MethodGet,
		Route: "/projects/{projectId}/chatboxes", Params: []string{projectID}, Query: transport.Query("cursor", cursor)})
}

// Chatbox returns a chatbox's full settings. A chatbox of another project is
// NOT_FOUND.
func (s *Service) Chatbox(ctx context.Context, projectID, chatboxID string, opts ...option.RequestOption) (*ChatboxDetail, error) {
	ctx = transport.WithOptions(ctx, opts)
	return transport.Call[ChatboxDetail](ctx, s.tr(), &transport.Request{Method: http.MethodGet,
		Route: "/projects/{projectId}/chatboxes/{chatboxId}", Params: []string{projectID, chatboxID}})
}
