package projectopstest

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/internal/apierr"
)

// toolRunner is how the eval engine reaches a run's saved servers: through
// the double's MCP layer (pooled go-sdk client sessions per user and saved
// server), with the iteration's context so a cancelled or timed-out run
// stops its in-flight MCP calls. Failures are *httpError values naming the
// API error the layer would answer with.
type toolRunner interface {
	Tools(ctx context.Context, userID, projectID, serverID string) ([]*mcp.Tool, error)
	Call(ctx context.Context, userID, projectID, serverID, name string, args map[string]any) (*mcp.CallToolResult, error)
}

// noMCPRunner is the runner used until the server's MCP layer is wired in:
// every saved server reads as unreachable.
type noMCPRunner struct{}

func (r noMCPRunner) Tools(context.Context, string, string, string) ([]*mcp.Tool, error) {
	return nil, r.unreachable()
}

func (r noMCPRunner) Call(context.Context, string, string, string, string, map[string]any) (*mcp.CallToolResult, error) {
	return nil, r.unreachable()
}

func (noMCPRunner) unreachable() error {
	return newError(apierr.CodeServerUnreachable, "Could not connect to the server", nil)
}
