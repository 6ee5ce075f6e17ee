package projectopstest

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
)

// maxListPages bounds a full listing, in case a server hands out cursors
// forever.
const maxListPages = 1000

var errCursorLoop = &mcpconn.Failure{Kind: mcpconn.ServerError, Message: "the server repeated a pagination cursor"}

// listAll follows the MCP server's cursors to the end of a listing.
func listAll[T any](ctx context.Context, cs *mcp.ClientSession,
	list func(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]*T, string, error)) ([]*T, error) {
	out := []*T{}
	seen := map[string]bool{}
	cursor := ""
	for range maxListPages {
		items, next, err := list(ctx, cs, cursor)
		if err != nil {
			return out, err
		}
		out = append(out, items...)
		if next == "" {
			return out, nil
		}
		if seen[next] {
			return out, errCursorLoop
		}
		seen[next] = true
		cursor = next
	}
	return out, errCursorLoop
}
