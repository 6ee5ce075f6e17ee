package servers

import (
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The MCP payloads of the primitive operations are go-sdk types, exactly as
// the MCP server answered them: tools are *mcp.Tool, prompts *mcp.Prompt,
// resources *mcp.Resource; tools/call returns *mcp.CallToolResult,
// prompts/get *mcp.GetPromptResult and resources/read
// *mcp.ReadResourceResult.

// ListParams selects a page of a primitive listing. Cursor is the
// NextCursor of the previous page ("" for the first); it travels in the
// request body.
type ListParams struct {
	Cursor string `json:"cursor,omitempty"`
}

// CallToolParams calls one tool.
type CallToolParams struct {
	// ToolName is the tool's name, exactly as the tools list returns it.
	ToolName string `json:"toolName"`
	// Parameters are the tool's arguments, matching its inputSchema; nil
	// sends none (the service then passes {}).
	Parameters map[string]any `json:"parameters,omitempty"`
}

// GetPromptParams renders one prompt.
type GetPromptParams struct {
	// PromptName is the prompt's name, exactly as the prompts list returns
	// it.
	PromptName string `json:"promptName"`
	// Arguments are the prompt's arguments: string, number or boolean
	// values (the MCP server receives them as strings).
	Arguments map[string]any `json:"arguments,omitempty"`
}

// ReadResourceParams reads one resource.
type ReadResourceParams struct {
	// URI is the resource's URI, exactly as the resources list returns it.
	URI string `json:"uri"`
}

// ExportSnapshot is a server's tools, resources and prompts in one
// document, meant to be stored and compared in CI (see Diff).
type ExportSnapshot struct {
	ServerID string `json:"serverId"`
	// ExportedAt is when the service took the snapshot (RFC 3339 on the
	// wire); Diff ignores it.
	ExportedAt time.Time       `json:"exportedAt"`
	Tools      []*mcp.Tool     `json:"tools"`
	Resources  []*mcp.Resource `json:"resources"`
	Prompts    []*mcp.Prompt   `json:"prompts"`
}
