package projectopstest

import (
	"context"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/projectopstest/internal/mcpops"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolRunner is how the eval engine reaches a run's saved servers. Failures
// are *edge.Error values naming the API error the servers routes would
// answer with.
type toolRunner interface {
	Tools(ctx context.Context, userID, projectID, serverID string) ([]*mcp.Tool, error)
	Call(ctx context.Context, userID, projectID, serverID, name string, args map[string]any) (*mcp.CallToolResult, error)
}

// mcpRunner runs eval tool calls through the double's MCP layer, as the
// servers routes do but on the run's own go-sdk session per saved server
// (opened by the run's first call, closed when the run ends: see
// executeRun), with the run creator's imported OAuth grant and the
// layer's timeout. The
// iteration's context is passed down, so cancelling or timing out a run
// stops its in-flight MCP calls.
type mcpRunner struct{ s *Server }

// open prepares an authorized call on a saved server of the project for
// userID.
func (r mcpRunner) open(userID, projectID, serverID string) (*mcpops.Call, *edge.Error) {
	sc, herr := r.s.openServer(userID, projectID, serverID, nil)
	if herr != nil {
		return nil, herr
	}
	if herr := sc.Authorize(); herr != nil {
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
	tools, herr := mcpops.Tools(ctx, sc)
	if herr != nil {
		return nil, herr
	}
	return tools, nil
}

// Call calls a tool. A tool-level failure is a result with IsError, not an
// error.
func (r mcpRunner) Call(ctx context.Context, userID, projectID, serverID, name string, args map[string]any) (*mcp.CallToolResult, error) {
	sc, herr := r.open(userID, projectID, serverID)
	if herr != nil {
		return nil, herr
	}
	res, herr := mcpops.CallToolArgs(ctx, sc, name, args)
	if herr != nil {
		return nil, herr
	}
	return res, nil
}
