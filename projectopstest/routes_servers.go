package projectopstest

import (
	"context"
	"encoding/json"

	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/projectopstest/internal/mcpops"

	"github.com/projectops/projectops-go/servers"
)

// serverOpsRoutes serves the operations on saved servers, which the double
// carries out against the real MCP servers behind them (internal/mcpops).
func serverOpsRoutes(s *Server, rt *router) {
	const p = "POST /projects/{projectId}/servers/{serverId}"
	rt.handle(p+"/validate", serverOp(s, accessRead, func(ctx context.Context, sc *mcpops.Call, _ *mcpops.ConnBody) (mcpops.ValidateResult, *edge.Error) {
		return mcpops.Validate(ctx, sc)
	}))
	rt.handle(p+"/doctor", serverOp(s, accessRead, mcpops.Doctor))
	rt.handle(p+"/check-oauth", serverRead(s, mcpops.CheckOAuth))
	rt.handle(p+"/tools", serverOp(s, accessRead,
		func(ctx context.Context, sc *mcpops.Call, b *mcpops.ToolsListBody) (pager.Page[json.RawMessage], *edge.Error) {
			return mcpops.ListTools(ctx, sc, &b.ListBody)
		}))
	rt.handle(p+"/tools/call", serverOp(s, accessWrite, mcpops.CallTool))
	rt.handle(p+"/prompts", serverOp(s, accessRead, mcpops.ListPrompts))
	rt.handle(p+"/prompts/get", serverOp(s, accessRead,
		func(ctx context.Context, sc *mcpops.Call, b *mcpops.GetPromptBody) (json.RawMessage, *edge.Error) {
			return mcpops.GetPrompt(ctx, sc, &b.GetPromptParams)
		}))
	rt.handle(p+"/resources", serverOp(s, accessRead, mcpops.ListResources))
	rt.handle(p+"/resources/read", serverOp(s, accessRead,
		func(ctx context.Context, sc *mcpops.Call, b *mcpops.ReadResourceBody) (json.RawMessage, *edge.Error) {
			return mcpops.ReadResource(ctx, sc, &b.ReadResourceParams)
		}))
	rt.handle(p+"/export", serverOp(s, accessRead, mcpops.Export))
	// Import-tokens' body is not the other operations' (the service checks
	// it with a schema of its own, without their common fields).
	rt.handle(p+"/oauth/import-tokens", serverOp(s, accessWrite,
		func(_ context.Context, sc *mcpops.Call, p *servers.ImportTokensParams) (servers.ImportTokensResult, *edge.Error) {
			return mcpops.ImportTokens(sc, p, sameServerURL)
		}))
}

// serverOp is a route on a saved server: the body is checked first (as
// the service's schema check runs before its backend looks the server
// up), then the server must exist, and f runs without the lock (it calls
// the MCP server) with the server opened but not yet authorized (most
// operations then call Authorize for the caller's OAuth grant).
func serverOp[Req, Resp any](s *Server, need access, f func(ctx context.Context, sc *mcpops.Call, body *Req) (Resp, *edge.Error)) handlerFunc {
	return route(s, op[Req, Resp]{need: need, find: findServer, unlocked: true,
		check: validateBody[Req],
		apply: func(c *call, body *Req) (Resp, *edge.Error) {
			sc, herr := c.s.openServer(c.a.userID, c.path("projectId"), c.path("serverId"), func() *edge.Error {
				_, _, herr := c.s.st.projectFor(c.a, c.path("projectId"), need)
				return herr
			})
			if herr != nil {
				var zero Resp
				return zero, herr
			}
			return f(c.r.Context(), sc, body)
		}})
}

// validateBody runs a body's own checks (the service's schema rules the
// reference does not state), when its type has them.
func validateBody[Req any](_ *call, body *Req) *edge.Error {
	if v, ok := any(body).(interface{ Validate() *edge.Error }); ok {
		return v.Validate()
	}
	return nil
}

// serverRead is serverOp for a read whose body carries only the common
// fields of the server operations (mcpops.ServerFields), checked and then
// unused: an empty body or any JSON object with valid common fields, its
// other fields ignored (the reference's emptyBody is an open object, and
// the service reads these routes' bodies so).
func serverRead[Resp any](s *Server, f func(ctx context.Context, sc *mcpops.Call) (Resp, *edge.Error)) handlerFunc {
	return serverOp(s, accessRead, func(ctx context.Context, sc *mcpops.Call, _ *mcpops.ServerBody) (Resp, *edge.Error) {
		return f(ctx, sc)
	})
}

// findServer requires the route's saved server to be the project's.
func findServer(c *call) *edge.Error {
	if sv := c.s.st.servers[c.path("serverId")]; sv == nil || sv.projectID != c.project.id {
		return notFoundIn("Server")
	}
	return nil
}
