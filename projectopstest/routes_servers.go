package projectopstest

import (
	"context"
	"strconv"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
)

// serverOpsRoutes serves the operations on saved servers, which the double
// carries out against the real MCP servers behind them (mcp_*.go).
func serverOpsRoutes(s *Server, rt *router) {
	const p = "POST /projects/{projectId}/servers/{serverId}"
	rt.handle(p+"/validate", serverOp(s, accessRead, validateServer))
	rt.handle(p+"/doctor", serverOp(s, accessRead, doctorServer))
	rt.handle(p+"/check-oauth", serverOp(s, accessRead, checkServerOAuth))
	rt.handle(p+"/tools", serverOp(s, accessRead, listPage("tools", hasTools, listToolsPage)))
	rt.handle(p+"/tools/call", serverOp(s, accessWrite, callTool))
	rt.handle(p+"/prompts", serverOp(s, accessRead, listPage("prompts", hasPrompts, listPromptsPage)))
	rt.handle(p+"/prompts/get", serverOp(s, accessRead, getPrompt))
	rt.handle(p+"/resources", serverOp(s, accessRead, listPage("resources", hasResources, listResourcesPage)))
	rt.handle(p+"/resources/read", serverOp(s, accessRead, readResource))
	rt.handle(p+"/export", serverOp(s, accessRead, exportServer))
	rt.handle(p+"/oauth/import-tokens", serverOp(s, accessWrite, importTokens))
}

// serverOp is a route on a saved server: the server must exist before the
// body is read, and f runs without the lock (it calls the MCP server) with
// the server opened but not yet authorized (most operations then call
// sc.authorize for the caller's OAuth grant).
func serverOp[Req, Resp any](s *Server, need access, f func(c *call, sc *serverCall, body *Req) (Resp, *edge.Error)) handlerFunc {
	return route(s, op[Req, Resp]{need: need, find: findServer, unlocked: true,
		apply: func(c *call, body *Req) (Resp, *edge.Error) {
			sc, herr := c.s.openServer(c.r, c.a, need)
			if herr != nil {
				var zero Resp
				return zero, herr
			}
			return f(c, sc, body)
		}})
}

// findServer requires the route's saved server to be the project's.
func findServer(c *call) *edge.Error {
	if sv := c.s.st.servers[c.path("serverId")]; sv == nil || sv.projectID != c.project.id {
		return notFoundIn("Server")
	}
	return nil
}

func checkServerOAuth(_ *call, sc *serverCall, _ *noBody) (servers.CheckOAuthResult, *edge.Error) {
	return sc.checkOAuth(), nil
}

// listPage serves one page of a primitive listing: 422 when the server did
// not advertise the capability, else the MCP server's own page and cursor.
func listPage[T any](capability string, has func(*mcp.ServerCapabilities) bool,
	list func(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]*T, string, error),
) func(c *call, sc *serverCall, p *servers.ListParams) (pager.Page[*T], *edge.Error) {
	return func(c *call, sc *serverCall, p *servers.ListParams) (pager.Page[*T], *edge.Error) {
		page := pager.Page[*T]{Items: []*T{}}
		if herr := sc.authorize(); herr != nil {
			return page, herr
		}
		unsupported := false
		herr := sc.run(c.r.Context(), true, func(ctx context.Context, conn *mcpconn.Conn) error {
			if !has(capsOf(conn)) {
				unsupported = true
				return nil
			}
			items, next, err := list(ctx, conn.Session, p.Cursor)
			if items != nil {
				page.Items = items
			}
			page.NextCursor = next
			return err
		})
		if herr != nil {
			return page, herr
		}
		if unsupported {
			return page, errUnsupported(sc.serverID, capability)
		}
		return page, nil
	}
}

// capsOf returns the capabilities the server advertised (never nil).
func capsOf(c *mcpconn.Conn) *mcp.ServerCapabilities {
	if ir := c.Session.InitializeResult(); ir != nil && ir.Capabilities != nil {
		return ir.Capabilities
	}
	return &mcp.ServerCapabilities{}
}

func hasTools(c *mcp.ServerCapabilities) bool     { return c.Tools != nil }
func hasPrompts(c *mcp.ServerCapabilities) bool   { return c.Prompts != nil }
func hasResources(c *mcp.ServerCapabilities) bool { return c.Resources != nil }

func listToolsPage(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]*mcp.Tool, string, error) {
	res, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
	if err != nil {
		return nil, "", err
	}
	return res.Tools, res.NextCursor, nil
}

func listPromptsPage(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]*mcp.Prompt, string, error) {
	res, err := cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
	if err != nil {
		return nil, "", err
	}
	return res.Prompts, res.NextCursor, nil
}

func listResourcesPage(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]*mcp.Resource, string, error) {
	res, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
	if err != nil {
		return nil, "", err
	}
	return res.Resources, res.NextCursor, nil
}

func listTemplatesPage(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]*mcp.ResourceTemplate, string, error) {
	res, err := cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
	if err != nil {
		return nil, "", err
	}
	return res.ResourceTemplates, res.NextCursor, nil
}

// callTool executes a tool: a member's write (project guests may not run
// tools, which can have side effects). The result is returned verbatim,
// isError included; it is never retried on a new session.
func callTool(c *call, sc *serverCall, p *servers.CallToolParams) (*mcp.CallToolResult, *edge.Error) {
	if herr := sc.authorize(); herr != nil {
		return nil, herr
	}
	if p.ToolName == "" {
		return nil, edge.Validation("toolName", "toolName is required")
	}
	args := p.Parameters
	if args == nil {
		args = map[string]any{}
	}
	var res *mcp.CallToolResult
	herr := sc.run(c.r.Context(), false, func(ctx context.Context, conn *mcpconn.Conn) error {
		if !hasTools(capsOf(conn)) {
			return &mcpconn.Failure{Kind: mcpconn.Unsupported, Message: "tools"}
		}
		var err error
		res, err = conn.Session.CallTool(ctx, &mcp.CallToolParams{Name: p.ToolName, Arguments: args})
		return err
	})
	return res, herr
}

// getPrompt renders a prompt; argument values may be strings, numbers or
// booleans and reach the MCP server as strings.
func getPrompt(c *call, sc *serverCall, p *servers.GetPromptParams) (*mcp.GetPromptResult, *edge.Error) {
	if herr := sc.authorize(); herr != nil {
		return nil, herr
	}
	if p.PromptName == "" {
		return nil, edge.Validation("promptName", "promptName is required")
	}
	args := make(map[string]string, len(p.Arguments))
	for k, v := range p.Arguments {
		switch v := v.(type) {
		case string:
			args[k] = v
		case bool:
			args[k] = strconv.FormatBool(v)
		case float64:
			args[k] = strconv.FormatFloat(v, 'f', -1, 64)
		default:
			return nil, edge.Validation("arguments."+k, "Prompt argument "+strconv.Quote(k)+" must be a string, number or boolean")
		}
	}
	var res *mcp.GetPromptResult
	herr := sc.run(c.r.Context(), true, func(ctx context.Context, conn *mcpconn.Conn) error {
		if !hasPrompts(capsOf(conn)) {
			return &mcpconn.Failure{Kind: mcpconn.Unsupported, Message: "prompts"}
		}
		var err error
		res, err = conn.Session.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.PromptName, Arguments: args})
		return err
	})
	return res, herr
}

func readResource(c *call, sc *serverCall, p *servers.ReadResourceParams) (*mcp.ReadResourceResult, *edge.Error) {
	if herr := sc.authorize(); herr != nil {
		return nil, herr
	}
	if p.URI == "" {
		return nil, edge.Validation("uri", "uri is required")
	}
	var res *mcp.ReadResourceResult
	herr := sc.run(c.r.Context(), true, func(ctx context.Context, conn *mcpconn.Conn) error {
		if !hasResources(capsOf(conn)) {
			return &mcpconn.Failure{Kind: mcpconn.Unsupported, Message: "resources"}
		}
		var err error
		res, err = conn.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: p.URI})
		// Servers answer an unknown URI with -32002 or, like go-sdk and
		// the TypeScript SDK, with invalid params: both are a 404 here.
		if err == nil {
			return nil
		}
		f := mcpconn.Classify(err, ctx, nil, conn)
		if f.Kind == mcpconn.InvalidParams {
			f.Kind = mcpconn.NotFound
		}
		return f
	})
	return res, herr
}
