package mcpops

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
)

// ListTools, ListPrompts and ListResources serve a primitive listing: 422
// when the server did not advertise the capability; else, without a
// cursor (or with an empty one), every page of the server's listing in one
// page with no cursor, as the service's MCP client aggregates a listing
// asked without one (see listEvery), or with firstPageOnly only the first
// page, still with no cursor (see listFirst); with a cursor, the MCP
// server's own page there and its next cursor. Items are as the server
// sent them.
var (
	ListTools     = listPage("tools", hasTools, toolsAsSent)
	ListPrompts   = listPage("prompts", hasPrompts, promptsAsSent)
	ListResources = listPage("resources", hasResources, resourcesAsSent)
)

func listPage(capability string, has func(*mcp.ServerCapabilities) bool, list rawPager,
) func(ctx context.Context, sc *Call, p *ListBody) (pager.Page[json.RawMessage], *edge.Error) {
	return func(ctx context.Context, sc *Call, p *ListBody) (pager.Page[json.RawMessage], *edge.Error) {
		page := pager.Page[json.RawMessage]{Items: []json.RawMessage{}}
		if herr := sc.Authorize(); herr != nil {
			return page, herr
		}
		unsupported := false
		herr := sc.Run(ctx, true, func(ctx context.Context, conn *mcpconn.Conn) error {
			if !has(capsOf(conn)) {
				unsupported = true
				return nil
			}
			if p.Cursor == "" {
				walk := listEvery
				if p.OnlyFirstPage() {
					walk = listFirst
				}
				items, err := walk(ctx, conn.Session, list)
				if items != nil {
					page.Items = items
				}
				return err
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
			return page, errUnsupported(sc.ServerID, capability)
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

// CallTool executes a tool: a member's write (project guests may not run
// tools, which can have side effects). The result is returned verbatim,
// isError included; it is never retried on a new session. A task opt-in
// is refused once connected, as the service's route refuses it in the
// operation it runs on the connection, and the tool is not called.
func CallTool(ctx context.Context, sc *Call, p *CallToolBody) (json.RawMessage, *edge.Error) {
	if herr := sc.Authorize(); herr != nil {
		return nil, herr
	}
	if p.ToolName == "" {
		return nil, edge.Validation("toolName", "toolName is required")
	}
	if herr := checkMCPName("toolName", p.ToolName); herr != nil {
		return nil, herr
	}
	args := p.Parameters
	if args == nil {
		args = map[string]any{}
	}
	var res json.RawMessage
	refused := false
	herr := sc.Run(ctx, false, func(ctx context.Context, conn *mcpconn.Conn) error {
		if p.wantsTask() {
			refused = true
			return nil
		}
		if !hasTools(capsOf(conn)) {
			return &mcpconn.Failure{Kind: mcpconn.Unsupported, Message: "tools"}
		}
		ctx, raw := mcpconn.CaptureRaw(ctx)
		typed, err := conn.Session.CallTool(ctx, &mcp.CallToolParams{Name: p.ToolName, Arguments: args})
		if err == nil {
			res = verbatim(raw, typed)
		}
		return err
	})
	if herr == nil && refused {
		return nil, errTaskRefused()
	}
	return res, herr
}

// GetPrompt renders a prompt; argument values may be strings, numbers or
// booleans and reach the MCP server as the strings the service's
// JavaScript String(value) makes of them.
func GetPrompt(ctx context.Context, sc *Call, p *servers.GetPromptParams) (json.RawMessage, *edge.Error) {
	if herr := sc.Authorize(); herr != nil {
		return nil, herr
	}
	if p.PromptName == "" {
		return nil, edge.Validation("promptName", "promptName is required")
	}
	if herr := checkMCPName("promptName", p.PromptName); herr != nil {
		return nil, herr
	}
	args := make(map[string]string, len(p.Arguments))
	for k, v := range p.Arguments {
		switch v := v.(type) {
		case string:
			args[k] = v
		case bool:
			args[k] = strconv.FormatBool(v)
		case float64:
			args[k] = wire.JSNumber(v) // as the service's String(value)
		default:
			return nil, edge.Validation("arguments."+k, "Prompt argument "+strconv.Quote(k)+" must be a string, number or boolean")
		}
	}
	var res json.RawMessage
	herr := sc.Run(ctx, true, func(ctx context.Context, conn *mcpconn.Conn) error {
		if !hasPrompts(capsOf(conn)) {
			return &mcpconn.Failure{Kind: mcpconn.Unsupported, Message: "prompts"}
		}
		ctx, raw := mcpconn.CaptureRaw(ctx)
		typed, err := conn.Session.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.PromptName, Arguments: args})
		if err == nil {
			res = verbatim(raw, typed)
		}
		return err
	})
	return res, herr
}

// ReadResource reads a resource; an unknown URI is 404.
func ReadResource(ctx context.Context, sc *Call, p *servers.ReadResourceParams) (json.RawMessage, *edge.Error) {
	if herr := sc.Authorize(); herr != nil {
		return nil, herr
	}
	if p.URI == "" {
		return nil, edge.Validation("uri", "uri is required")
	}
	if herr := checkMCPName("uri", p.URI); herr != nil {
		return nil, herr
	}
	var res json.RawMessage
	herr := sc.Run(ctx, true, func(ctx context.Context, conn *mcpconn.Conn) error {
		if !hasResources(capsOf(conn)) {
			return &mcpconn.Failure{Kind: mcpconn.Unsupported, Message: "resources"}
		}
		ctx, raw := mcpconn.CaptureRaw(ctx)
		typed, err := conn.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: p.URI})
		// Servers answer an unknown URI with -32002 or, like go-sdk and
		// the TypeScript SDK, with invalid params: both are a 404 here.
		if err == nil {
			res = verbatim(raw, typed)
			return nil
		}
		f := mcpconn.Classify(err, ctx, nil, conn)
		if f.Kind == mcpconn.InvalidParams || f.Kind == mcpconn.ServerError && f.Code == codeResourceNotFound {
			f.Kind = mcpconn.NotFound
			return f
		}
		return err // Run classifies the rest, knowing whether the caller left
	})
	return res, herr
}

// codeResourceNotFound is MCP's JSON-RPC error for an unknown resource URI.
const codeResourceNotFound = -32002

// Tools lists every tool of an authorized call's server (following its
// cursors), none for a server without tools: what an eval run offers its
// model.
func Tools(ctx context.Context, sc *Call) ([]*mcp.Tool, *edge.Error) {
	var tools []*mcp.Tool
	herr := sc.Run(ctx, true, func(ctx context.Context, c *mcpconn.Conn) error {
		if !hasTools(capsOf(c)) {
			return nil
		}
		var err error
		tools, err = listAll(ctx, c.Session, listToolsPage)
		return err
	})
	return tools, herr
}

// CallToolArgs calls a tool of an authorized call's server for an eval
// run; fresh params every call (go-sdk writes _meta into them). A
// tool-level failure is a result with IsError, not an error.
func CallToolArgs(ctx context.Context, sc *Call, name string, args map[string]any) (*mcp.CallToolResult, *edge.Error) {
	var res *mcp.CallToolResult
	herr := sc.Run(ctx, false, func(ctx context.Context, c *mcpconn.Conn) error {
		var err error
		res, err = c.Session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		return err
	})
	return res, herr
}

// methodNotFound reports whether err is the server's JSON-RPC "method not
// found".
func methodNotFound(ctx context.Context, err error, conn *mcpconn.Conn) bool {
	return mcpconn.Classify(err, ctx, nil, conn).Kind == mcpconn.Unsupported
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
