package mcpops

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
	list func(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]T, string, error)) ([]T, error) {
	out := []T{}
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

// collect is a listing to the end into *dst, counting what it got.
func collect[T any](cs *mcp.ClientSession, dst *[]T,
	list func(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]T, string, error)) func(context.Context) (int, error) {
	return func(ctx context.Context) (int, error) {
		var err error
		*dst, err = listAll(ctx, cs, list)
		return len(*dst), err
	}
}
