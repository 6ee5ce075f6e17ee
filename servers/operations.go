package servers

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// Routes of the server operations, all POST with a JSON body.
const (
	routeServer       = "/projects/{projectId}/servers/{serverId}"
	routeValidate     = routeServer + "/validate"
	routeDoctor       = routeServer + "/doctor"
	routeCheckOAuth   = routeServer + "/check-oauth"
	routeTools        = routeServer + "/tools"
	routeCallTool     = routeServer + "/tools/call"
	routePrompts      = routeServer + "/prompts"
	routeGetPrompt    = routeServer + "/prompts/get"
	routeResources    = routeServer + "/resources"
	routeReadResource = routeServer + "/resources/read"
	routeExport       = routeServer + "/export"
	routeImportTokens = routeServer + "/oauth/import-tokens"
)

// emptyBody is the {} the bodyless server operations send.
var emptyBody = struct{}{}

func post[T any](ctx context.Context, s *Service, route, projectID, serverID string, body any, c transport.Class) (*T, error) {
	return transport.Call[T](ctx, s.tr(), &transport.Request{Method: http.MethodPost, Route: route,
		Params: []string{projectID, serverID}, Body: body, Class: c})
}

// Validate connects to the server, initializes an MCP session and returns
// the connection snapshot. An unreachable server is SERVER_UNREACHABLE
// (502), a silent one TIMEOUT (504), one needing a grant OAUTH_REQUIRED.
func (s *Service) Validate(ctx context.Context, projectID, serverID string, opts ...option.RequestOption) (*ValidateResult, error) {
	ctx = transport.WithOptions(ctx, opts)
	return post[ValidateResult](ctx, s, routeValidate, projectID, serverID, emptyBody, transport.Read)
}

// Doctor runs the step-by-step health workflow and returns its report. A
// broken server yields a report with Status DoctorError (not a Go error);
// errors are reserved for access problems and the API itself. Unlike the
// other operations the doctor does not refuse an OAuth server the caller
// has no grant for: it connects without a token, and reports
// DoctorOAuthRequired only when the server answers 401 to a caller with
// no credentials (see DoctorOAuthRequired).
func (s *Service) Doctor(ctx context.Context, projectID, serverID string, opts ...option.RequestOption) (*DoctorReport, error) {
	ctx = transport.WithOptions(ctx, opts)
	return post[DoctorReport](ctx, s, routeDoctor, projectID, serverID, emptyBody, transport.Read)
}

// CheckOAuth reports whether the server is configured to require an OAuth
// grant (RequiresAuthorization), without connecting to it.
func (s *Service) CheckOAuth(ctx context.Context, projectID, serverID string, opts ...option.RequestOption) (*CheckOAuthResult, error) {
	ctx = transport.WithOptions(ctx, opts)
	return post[CheckOAuthResult](ctx, s, routeCheckOAuth, projectID, serverID, emptyBody, transport.Read)
}

// ListTools returns a page of the server's tools. Without a cursor (p nil
// or p.Cursor "") the service answers every page of the MCP server's
// listing in one, with no NextCursor; with one, the MCP server's page
// there and its NextCursor. Check NextCursor all the same: an older
// service answers the first page. A server without the tools capability
// is FEATURE_NOT_SUPPORTED.
func (s *Service) ListTools(ctx context.Context, projectID, serverID string, p *ListParams, opts ...option.RequestOption) (*shared.Page[*mcp.Tool], error) {
	ctx = transport.WithOptions(ctx, opts)
	return post[shared.Page[*mcp.Tool]](ctx, s, routeTools, projectID, serverID, pager.Copy(p), transport.Read)
}

// AllTools iterates over the server's tools from p.Cursor on (p may
// be nil): without a cursor one request, which the service answers with
// every page, or more when it answers with a NextCursor (an older
// service), followed to the end.
func (s *Service) AllTools(ctx context.Context, projectID, serverID string, p *ListParams, opts ...option.RequestOption) iter.Seq2[*mcp.Tool, error] {
	ctx = transport.KeepOptions(ctx, opts)
	return pager.Seq(ctx, pager.Copy(p).Cursor, func(ctx context.Context, cursor string) (*shared.Page[*mcp.Tool], error) {
		return s.ListTools(ctx, projectID, serverID, &ListParams{Cursor: cursor})
	})
}

// ListPrompts returns a page of the server's prompts: every page in one
// without a cursor (p may be nil), as ListTools.
func (s *Service) ListPrompts(ctx context.Context, projectID, serverID string, p *ListParams, opts ...option.RequestOption) (*shared.Page[*mcp.Prompt], error) {
	ctx = transport.WithOptions(ctx, opts)
	return post[shared.Page[*mcp.Prompt]](ctx, s, routePrompts, projectID, serverID, pager.Copy(p), transport.Read)
}

// AllPrompts iterates over the server's prompts from p.Cursor on (p may
// be nil).
func (s *Service) AllPrompts(ctx context.Context, projectID, serverID string, p *ListParams, opts ...option.RequestOption) iter.Seq2[*mcp.Prompt, error] {
	ctx = transport.KeepOptions(ctx, opts)
	return pager.Seq(ctx, pager.Copy(p).Cursor, func(ctx context.Context, cursor string) (*shared.Page[*mcp.Prompt], error) {
		return s.ListPrompts(ctx, projectID, serverID, &ListParams{Cursor: cursor})
	})
}

// ListResources returns a page of the server's resources: every page in
// one without a cursor (p may be nil), as ListTools.
func (s *Service) ListResources(ctx context.Context, projectID, serverID string, p *ListParams, opts ...option.RequestOption) (*shared.Page[*mcp.Resource], error) {
	ctx = transport.WithOptions(ctx, opts)
	return post[shared.Page[*mcp.Resource]](ctx, s, routeResources, projectID, serverID, pager.Copy(p), transport.Read)
}

// AllResources iterates over the server's resources from p.Cursor on (p may
// be nil).
func (s *Service) AllResources(ctx context.Context, projectID, serverID string, p *ListParams, opts ...option.RequestOption) iter.Seq2[*mcp.Resource, error] {
	ctx = transport.KeepOptions(ctx, opts)
	return pager.Seq(ctx, pager.Copy(p).Cursor, func(ctx context.Context, cursor string) (*shared.Page[*mcp.Resource], error) {
		return s.ListResources(ctx, projectID, serverID, &ListParams{Cursor: cursor})
	})
}

// CallTool executes a tool and returns the MCP result, as go-sdk's type
// holds it (see the package doc for the body as sent). A tool-level failure (result.IsError) is a successful call, not a Go
// error. The call is never re-sent once it may have reached the service,
// since a tool may have side effects.
func (s *Service) CallTool(ctx context.Context, projectID, serverID string, p CallToolParams, opts ...option.RequestOption) (*mcp.CallToolResult, error) {
	ctx = transport.WithOptions(ctx, opts)
	r, err := post[callToolResult](ctx, s, routeCallTool, projectID, serverID, p, transport.Write)
	return (*mcp.CallToolResult)(r), err
}

// GetPrompt renders a prompt with arguments. The reference answers the MCP
// result ({"messages": [...]}); the service's route wraps it as
// {"content": {"messages": [...]}}. Both read alike: a body without a
// top-level messages (or with a null one) but with a content object
// holding one is read from that object.
func (s *Service) GetPrompt(ctx context.Context, projectID, serverID string, p GetPromptParams, opts ...option.RequestOption) (*mcp.GetPromptResult, error) {
	ctx = transport.WithOptions(ctx, opts)
	r, err := post[getPromptResult](ctx, s, routeGetPrompt, projectID, serverID, p, transport.Read)
	return (*mcp.GetPromptResult)(r), err
}

// ReadResource reads one resource by URI; text resources carry Text, binary
// ones Blob. The reference answers the MCP result ({"contents": [...]});
// the service's route wraps it as {"content": {"contents": [...]}}. Both
// read alike: a body without a top-level contents (or with a null one)
// but with a content object holding one is read from that object.
func (s *Service) ReadResource(ctx context.Context, projectID, serverID string, p ReadResourceParams, opts ...option.RequestOption) (*mcp.ReadResourceResult, error) {
	ctx = transport.WithOptions(ctx, opts)
	r, err := post[readResourceResult](ctx, s, routeReadResource, projectID, serverID, p, transport.Read)
	return (*mcp.ReadResourceResult)(r), err
}

// Export returns the server's tools, resources and prompts in one snapshot,
// for storing and diffing in CI (see Diff). As the service does, it holds
// every page of each listing (the service asks each without a cursor,
// which answers them all) and only some fields of each item: a tool's name, description,
// inputSchema and outputSchema; a resource's uri, name, description and
// mimeType; a prompt's name, description and arguments. A missing
// capability exports as an empty list. The snapshot's Raw is the response as served, with the
// fields go-sdk's types do not model and numbers as written.
func (s *Service) Export(ctx context.Context, projectID, serverID string, opts ...option.RequestOption) (*ExportSnapshot, error) {
	// Raw is the response body: kept in the caller's WithResponseInto
	// target when there is one (and copied from it, as the caller owns
	// it), else in one of Export's own.
	var own option.Response
	keep := &own
	if c, err := option.ForCall(opts); err == nil && c.Response != nil {
		keep = c.Response
	} else {
		opts = append(opts[:len(opts):len(opts)], option.WithResponseInto(&own))
	}
	ctx = transport.WithOptions(ctx, opts)
	snap, err := post[ExportSnapshot](ctx, s, routeExport, projectID, serverID, emptyBody, transport.Read)
	if err != nil {
		return nil, err
	}
	if len(keep.Body) > 0 {
		if keep == &own {
			snap.Raw = json.RawMessage(own.Body)
		} else {
			snap.Raw = append(json.RawMessage(nil), keep.Body...)
		}
	}
	return snap, nil
}

// ImportTokens stores OAuth tokens obtained outside the service for the
// server, scoped to the caller. Importing the same tokens again is harmless,
// so the call is retried like a read.
func (s *Service) ImportTokens(ctx context.Context, projectID, serverID string, p ImportTokensParams, opts ...option.RequestOption) (*ImportTokensResult, error) {
	ctx = transport.WithOptions(ctx, opts)
	// The one body that carries secrets: wireJSON sends them in clear, and
	// Secrets keeps them out of an error that quotes the body back.
	return transport.Call[ImportTokensResult](ctx, s.tr(), &transport.Request{Method: http.MethodPost, Route: routeImportTokens,
		Params: []string{projectID, serverID}, Body: p, Wire: wireJSON, Class: transport.Idempotent,
		Secrets: p.secrets(), Scrub: wire.SecretFields})
}
