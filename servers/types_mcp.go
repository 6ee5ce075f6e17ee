package servers

import (
	"encoding/json"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The MCP payloads of the primitive operations are go-sdk types, exactly as
// the MCP server answered them: tools are *mcp.Tool, prompts *mcp.Prompt,
// resources *mcp.Resource; tools/call returns *mcp.CallToolResult,
// prompts/get *mcp.GetPromptResult and resources/read
// *mcp.ReadResourceResult.

// ListParams selects a page of a primitive listing. Cursor is the
// NextCursor of the previous page; it travels in the request body. ""
// asks for the whole listing: the service answers every page of the MCP
// server's listing in one, with no NextCursor. Still check NextCursor: an
// older service answers the first page (the All iterators follow it).
type ListParams struct {
	Cursor string `json:"cursor,omitempty"`
}

// CallToolParams calls one tool.
type CallToolParams struct {
	// ToolName is the tool's name, exactly as the tools list returns it.
	ToolName string `json:"toolName"`
	// Parameters are the tool's arguments, matching its inputSchema; nil
	// sends none (the service then passes {}).
	Parameters map[string]any `json:"parameters,omitzero"`
}

// GetPromptParams renders one prompt.
type GetPromptParams struct {
	// PromptName is the prompt's name, exactly as the prompts list returns
	// it.
	PromptName string `json:"promptName"`
	// Arguments are the prompt's arguments: string, number or boolean
	// values (the MCP server receives them as strings).
	Arguments map[string]any `json:"arguments,omitzero"`
}

// ReadResourceParams reads one resource.
type ReadResourceParams struct {
	// URI is the resource's URI, exactly as the resources list returns it.
	URI string `json:"uri"`
}

// readResourceResult is mcp.ReadResourceResult read from either body a
// resources/read may answer: the reference's {"contents": [...]}, or the
// service route's {"content": {"contents": [...]}}, which wraps the MCP
// result as its SDK operation returns it (see unwrapContent).
type readResourceResult mcp.ReadResourceResult

// UnmarshalJSON implements json.Unmarshaler.
func (r *readResourceResult) UnmarshalJSON(b []byte) error {
	return json.Unmarshal(unwrapContent(b, "contents"), (*mcp.ReadResourceResult)(r))
}

// ExportSnapshot is a server's tools, resources and prompts in one
// document, meant to be stored and compared in CI (see Diff).
//
// The items are go-sdk's types, which model only the fields go-sdk knows:
// a vendor's field (of a prompt argument, say) is not in them, and numbers
// in a schema decode as float64.
// A snapshot from Service.Export or ParseSnapshot therefore also keeps
// the document as served in Raw, every field and number as written: Diff
// compares by it, and it is what to store when the snapshot must be read
// back whole.
type ExportSnapshot struct {
	ServerID string `json:"serverId"`
	// ExportedAt is when the service took the snapshot (RFC 3339 on the
	// wire); Diff ignores it.
	ExportedAt time.Time       `json:"exportedAt"`
	Tools      []*mcp.Tool     `json:"tools"`
	Resources  []*mcp.Resource `json:"resources"`
	Prompts    []*mcp.Prompt   `json:"prompts"`
	// Raw is the snapshot as served: set by Service.Export (the response
	// body) and ParseSnapshot (the document parsed), nil for a snapshot
	// built in Go. json.Unmarshal neither sets nor clears it, and
	// json.Marshal does not write it: it writes the typed fields, so write
	// Raw itself to keep what they do not model; it is the document as
	// served, so writing it discards any edit made in Go to the typed
	// fields. Diff uses an item of Raw only while a typed item still
	// matches it, so an item edited in Go is compared by its edits, save
	// an edit float64 cannot see: a schema's 9007199254740992 set in Go
	// where Raw has 9007199254740993 still matches, and Diff compares
	// Raw's number.
	Raw json.RawMessage `json:"-"`
}

// ParseSnapshot decodes a snapshot as Service.Export returns it (a file
// written from Raw, say) and keeps a copy of b in Raw, so Diff compares
// its items as written: fields go-sdk's types do not model and numbers at
// full precision included. The error is encoding/json's.
func ParseSnapshot(b []byte) (*ExportSnapshot, error) {
	var s ExportSnapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	s.Raw = append(json.RawMessage(nil), b...)
	return &s, nil
}
