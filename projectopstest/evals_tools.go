package projectopstest

import (
	"context"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
)

// toolRunner is how the eval engine reaches a run's saved servers. Failures
// are *edge.Error values naming the API error the servers routes would
// answer with.
type toolRunner interface {
	Tools(ctx context.Context, userID, projectID, serverID string) ([]*mcp.Tool, error)
	Call(ctx context.Context, userID, projectID, serverID, name string, args map[string]any) (*mcp.CallToolResult, error)
}

// mcpRunner runs eval tool calls through the double's MCP layer, exactly as
// the servers routes do: the run creator's pooled go-sdk session on the
// saved server, their imported OAuth grant, the layer's timeout. The
// iteration's context is passed down, so cancelling or timing out a run
// stops its in-flight MCP calls.
type mcpRunner struct{ s *Server }

// open prepares a call on a saved server of the project for userID.
func (r mcpRunner) open(userID, projectID, serverID string) (*serverCall, *edge.Error) {
	s := r.s
	s.mu.Lock()
	sv := s.st.servers[serverID]
	if sv == nil || sv.projectID != projectID {
		s.mu.Unlock()
		return nil, notFoundIn("Server")
	}
	sc := &serverCall{s: s, userID: userID, projectID: projectID, serverID: serverID,
		useOAuth: sv.useOAuth, url: sv.url, transport: sv.transport, target: targetLocked(sv)}
	if b, _ := sv.backend.(*mcpBackend); b != nil {
		sc.tokenURL = b.tokenURL
	}
	s.mu.Unlock()
	if herr := sc.authorize(); herr != nil {
		return nil, herr
	}
	return sc, nil
}

// Tools lists every tool of the server (following its cursors).
func (r mcpRunner) Tools(ctx context.Context, userID, projectID, serverID string) ([]*mcp.Tool, error) {
	sc, herr := r.open(userID, projectID, serverID)
	if herr != nil {
		return nil, herr
	}
	var tools []*mcp.Tool
	herr = sc.run(ctx, true, func(ctx context.Context, c *mcpconn.Conn) error {
		if !hasTools(capsOf(c)) {
			tools = nil // a server without tools offers none to the model
			return nil
		}
		var err error
		tools, err = listAll(ctx, c.Session, listToolsPage)
		return err
	})
	if herr != nil {
		return nil, herr
	}
	return tools, nil
}

// Call calls a tool; fresh params every call (go-sdk writes _meta into
// them). A tool-level failure is a result with IsError, not an error.
func (r mcpRunner) Call(ctx context.Context, userID, projectID, serverID, name string, args map[string]any) (*mcp.CallToolResult, error) {
	sc, herr := r.open(userID, projectID, serverID)
	if herr != nil {
		return nil, herr
	}
	var res *mcp.CallToolResult
	herr = sc.run(ctx, false, func(ctx context.Context, c *mcpconn.Conn) error {
		var err error
		res, err = c.Session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		return err
	})
	if herr != nil {
		return nil, herr
	}
	return res, nil
}
