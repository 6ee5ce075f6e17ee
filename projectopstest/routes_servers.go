package projectopstest

import (
	"context"
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
)

// serverOpsRoutes serves the operations on saved servers, which the double
// carries out against the real MCP servers behind them (mcp_*.go).
func (s *Server) serverOpsRoutes() {
	const p = "POST /projects/{projectId}/servers/{serverId}"
	s.handle(p+"/validate", s.validateServer)
	s.handle(p+"/doctor", s.doctorServer)
	s.handle(p+"/check-oauth", s.checkServerOAuth)
	s.handle(p+"/tools", s.listTools)
	s.handle(p+"/tools/call", s.callTool)
	s.handle(p+"/prompts", s.listPrompts)
	s.handle(p+"/prompts/get", s.getPrompt)
	s.handle(p+"/resources", s.listResources)
	s.handle(p+"/resources/read", s.readResource)
	s.handle(p+"/export", s.exportServer)
	s.handle(p+"/oauth/import-tokens", s.importTokens)
}

// begin opens the server with need, decodes the body into dst (nil for a
// bodyless operation) and applies the caller's OAuth grant.
func (s *Server) begin(r *http.Request, a actor, need access, dst any) (*serverCall, *httpError) {
	sc, herr := s.openServer(r, a, need)
	if herr != nil {
		return nil, herr
	}
	if dst == nil {
		herr = rejectBody(r)
	} else {
		_, herr = decodeBody(r, dst)
	}
	if herr != nil {
		return nil, herr
	}
	if herr := sc.authorize(); herr != nil {
		return nil, herr
	}
	return sc, nil
}

func (s *Server) checkServerOAuth(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	sc, herr := s.openServer(r, a, accessRead)
	if herr != nil {
		return herr
	}
	if herr := rejectBody(r); herr != nil {
		return herr
	}
	writeJSON(w, http.StatusOK, sc.checkOAuth())
	return nil
}

// listPage serves one page of a primitive listing: 422 when the server did
// not advertise the capability, else the MCP server's own page and cursor.
func listPage[T any](s *Server, w http.ResponseWriter, r *http.Request, a actor, capability string,
	has func(*mcp.ServerCapabilities) bool, list func(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]*T, string, error)) *httpError {
	var p servers.ListParams
	sc, herr := s.begin(r, a, accessRead, &p)
	if herr != nil {
		return herr
	}
	page := pager.Page[*T]{Items: []*T{}}
	unsupported := false
	herr = sc.run(r.Context(), true, func(ctx context.Context, c *mcpconn.Conn) error {
		if !has(capsOf(c)) {
			unsupported = true
			return nil
		}
		items, next, err := list(ctx, c.Session, p.Cursor)
		if items != nil {
			page.Items = items
		}
		page.NextCursor = next
		return err
	})
	if herr != nil {
		return herr
	}
	if unsupported {
		return errUnsupported(sc.serverID, capability)
	}
	writeJSON(w, http.StatusOK, page)
	return nil
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

func (s *Server) listTools(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	return listPage(s, w, r, a, "tools", hasTools, listToolsPage)
}

func (s *Server) listPrompts(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	return listPage(s, w, r, a, "prompts", hasPrompts, listPromptsPage)
}

func (s *Server) listResources(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	return listPage(s, w, r, a, "resources", hasResources, listResourcesPage)
}

// callTool executes a tool: a member's write (project guests may not run
// tools, which can have side effects). The result is returned verbatim,
// isError included; it is never retried on a new session.
func (s *Server) callTool(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	var p servers.CallToolParams
	sc, herr := s.begin(r, a, accessWrite, &p)
	if herr != nil {
		return herr
	}
	if p.ToolName == "" {
		return errValidation("toolName", "toolName is required")
	}
	args := p.Parameters
	if args == nil {
		args = map[string]any{}
	}
	var res *mcp.CallToolResult
	herr = sc.run(r.Context(), false, func(ctx context.Context, c *mcpconn.Conn) error {
		if !hasTools(capsOf(c)) {
			return &mcpconn.Failure{Kind: mcpconn.Unsupported, Message: "tools"}
		}
		var err error
		res, err = c.Session.CallTool(ctx, &mcp.CallToolParams{Name: p.ToolName, Arguments: args})
		return err
	})
	if herr != nil {
		return herr
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

// getPrompt renders a prompt; argument values may be strings, numbers or
// booleans and reach the MCP server as strings.
func (s *Server) getPrompt(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	var p servers.GetPromptParams
	sc, herr := s.begin(r, a, accessRead, &p)
	if herr != nil {
		return herr
	}
	if p.PromptName == "" {
		return errValidation("promptName", "promptName is required")
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
			return errValidation("arguments."+k, "Prompt argument "+strconv.Quote(k)+" must be a string, number or boolean")
		}
	}
	var res *mcp.GetPromptResult
	herr = sc.run(r.Context(), true, func(ctx context.Context, c *mcpconn.Conn) error {
		if !hasPrompts(capsOf(c)) {
			return &mcpconn.Failure{Kind: mcpconn.Unsupported, Message: "prompts"}
		}
		var err error
		res, err = c.Session.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.PromptName, Arguments: args})
		return err
	})
	if herr != nil {
		return herr
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

func (s *Server) readResource(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	var p servers.ReadResourceParams
	sc, herr := s.begin(r, a, accessRead, &p)
	if herr != nil {
		return herr
	}
	if p.URI == "" {
		return errValidation("uri", "uri is required")
	}
	var res *mcp.ReadResourceResult
	herr = sc.run(r.Context(), true, func(ctx context.Context, c *mcpconn.Conn) error {
		if !hasResources(capsOf(c)) {
			return &mcpconn.Failure{Kind: mcpconn.Unsupported, Message: "resources"}
		}
		var err error
		res, err = c.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: p.URI})
		// Servers answer an unknown URI with -32002 or, like go-sdk and
		// the TypeScript SDK, with invalid params: both are a 404 here.
		if err == nil {
			return nil
		}
		f := mcpconn.Classify(err, ctx, nil, c)
		if f.Kind == mcpconn.InvalidParams {
			f.Kind = mcpconn.NotFound
		}
		return f
	})
	if herr != nil {
		return herr
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}
