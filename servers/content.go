package servers

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// go-sdk's types refuse a whole result holding one content block of a type
// they do not know (a newer MCP revision's, a vendor's), and tools/call has
// run by then: these decode as go-sdk does and, only when that fails, drop
// the blocks (prompt messages) go-sdk cannot read alone and decode the
// rest. go-sdk itself is the judge of what it knows; nothing else is
// dropped. The body as served stays in option.WithResponseInto.

// callToolResult is mcp.CallToolResult, decoded leniently.
type callToolResult mcp.CallToolResult

// UnmarshalJSON implements json.Unmarshaler.
func (r *callToolResult) UnmarshalJSON(b []byte) error {
	return lenient(b, "content", (*mcp.CallToolResult)(r), func(elem json.RawMessage) bool {
		var probe mcp.CallToolResult
		return json.Unmarshal(append(append([]byte(`{"content":[`), elem...), ']', '}'), &probe) == nil
	})
}

// getPromptResult is mcp.GetPromptResult, decoded leniently.
type getPromptResult mcp.GetPromptResult

// UnmarshalJSON implements json.Unmarshaler.
func (r *getPromptResult) UnmarshalJSON(b []byte) error {
	return lenient(b, "messages", (*mcp.GetPromptResult)(r), func(elem json.RawMessage) bool {
		var probe mcp.PromptMessage
		return json.Unmarshal(elem, &probe) == nil
	})
}

// lenient decodes b into *v; if that fails, it drops the elements of b's
// array field that readable refuses and decodes again. The first error
// stands when nothing was dropped or the second decode fails too.
func lenient[T any](b []byte, field string, v *T, readable func(json.RawMessage) bool) error {
	err := json.Unmarshal(b, v)
	if err == nil {
		return nil
	}
	var top map[string]json.RawMessage
	var elems []json.RawMessage
	if json.Unmarshal(b, &top) != nil || json.Unmarshal(top[field], &elems) != nil {
		return err
	}
	kept := elems[:0]
	for _, e := range elems {
		if readable(e) {
			kept = append(kept, e)
		}
	}
	if len(kept) == len(elems) {
		return err
	}
	raw, merr := json.Marshal(kept)
	if merr != nil {
		return err
	}
	top[field] = raw
	if b, merr = json.Marshal(top); merr != nil {
		return err
	}
	var zero T
	*v = zero
	if json.Unmarshal(b, v) != nil {
		*v = zero
		return err
	}
	return nil
}
