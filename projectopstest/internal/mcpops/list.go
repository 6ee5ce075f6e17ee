package mcpops

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
)

// maxListPages bounds a full listing of the doctor or an eval run, in case
// a server hands out cursors forever (the service's doctor stops there).
const maxListPages = 1000

// The bounds of a listing asked without a cursor (see listEvery).
const (
	// maxEveryPages is the service's MCP client's page cap on such a
	// listing (its listMaxPages default), past which the listing fails.
	maxEveryPages = 64
	// maxEveryBytes bounds the items such a listing gathers, as sent: the
	// double answers them in one response. The service has no such bound;
	// the double keeps one so that a server cannot make it hold (and
	// answer) an unbounded listing. It is the bound of one captured MCP
	// message (mcpconn's maxRawMessage).
	maxEveryBytes = 32 << 20
)

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

// listEvery gathers every page of a listing, its items as the server sent
// them, as the service's MCP client does for a listing asked without a
// cursor: a repeated cursor ends the walk quietly with what was gathered
// (the client's walk stops there, answering a partial listing); more
// than maxEveryPages pages, or items past maxEveryBytes, fail it.
func listEvery(ctx context.Context, cs *mcp.ClientSession, list rawPager) ([]json.RawMessage, error) {
	return listBounded(ctx, cs, list, maxEveryPages, maxEveryBytes)
}

// listFirst is a listing asked without a cursor under firstPageOnly: the
// server's first page, its nextCursor dropped, as the service's client
// then reads page one as the whole listing.
func listFirst(ctx context.Context, cs *mcp.ClientSession, list rawPager) ([]json.RawMessage, error) {
	items, _, err := list(ctx, cs, "")
	return items, err
}

// listBounded is listEvery within maxPages pages and maxBytes bytes of
// items.
func listBounded(ctx context.Context, cs *mcp.ClientSession, list rawPager, maxPages, maxBytes int) ([]json.RawMessage, error) {
	out := []json.RawMessage{}
	seen := map[string]bool{}
	size, cursor := 0, ""
	for range maxPages {
		items, next, err := list(ctx, cs, cursor)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			size += len(it)
		}
		if size > maxBytes {
			return nil, &mcpconn.Failure{Kind: mcpconn.ServerError,
				Message: fmt.Sprintf("the server's listing ran past %d KiB", maxBytes>>10)}
		}
		out = append(out, items...)
		if next == "" || seen[next] {
			return out, nil
		}
		seen[next] = true
		cursor = next
	}
	// The double's verdict on a listing without end, not an error the
	// server sent.
	return nil, &mcpconn.Failure{Kind: mcpconn.ServerError, Message: fmt.Sprintf("the server's listing ran past %d pages", maxPages)}
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
