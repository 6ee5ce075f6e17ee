package servers

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// go-sdk's types refuse a whole result holding one content block of a type
// they do not know (a newer MCP revision's, a vendor's), and tools/call has
// run by then: these decode as go-sdk does and, only when that fails, drop
// the blocks (and prompt messages) whose type go-sdk does not know where
// they stand, then decode again. go-sdk itself says which types it knows
// (a minimal block of the type, decoded alone); a block of a known type
// that is malformed is not dropped, and the decode still fails. The body as
// served stays in option.WithResponseInto.

// callToolResult is mcp.CallToolResult, decoded leniently.
type callToolResult mcp.CallToolResult

// UnmarshalJSON implements json.Unmarshaler.
func (r *callToolResult) UnmarshalJSON(b []byte) error {
	return lenient(b, "content", (*mcp.CallToolResult)(r), func(elem json.RawMessage) (json.RawMessage, bool) {
		typ, nested := blockType(elem)
		switch {
		case !knows(inResult, typ):
			return nil, false
		case typ == "tool_result" && nested != nil:
			// A tool result's own blocks allow fewer types.
			if f := withFiltered(elem, "content", func(e json.RawMessage) (json.RawMessage, bool) {
				t, _ := blockType(e)
				return e, knows(inToolResult, t)
			}); f != nil {
				return f, true
			}
		}
		return elem, true
	})
}

// getPromptResult is mcp.GetPromptResult, decoded leniently from either
// body a prompts/get may answer: the reference's bare result, or the
// service route's {"content": <result>} (see unwrapContent).
type getPromptResult mcp.GetPromptResult

// UnmarshalJSON implements json.Unmarshaler.
func (r *getPromptResult) UnmarshalJSON(b []byte) error {
	return lenient(unwrapContent(b, "messages"), "messages", (*mcp.GetPromptResult)(r), func(elem json.RawMessage) (json.RawMessage, bool) {
		var m struct {
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(elem, &m) != nil {
			return elem, true // not ours to judge: the decode says what is wrong
		}
		typ, _ := blockType(m.Content)
		return elem, knows(inPrompt, typ)
	})
}

// blockType reads a content block's type and its nested content array, if
// any; a block that does not read as one has type "" and is left alone.
func blockType(b json.RawMessage) (typ string, nested []json.RawMessage) {
	var head struct {
		Type    *string         `json:"type"`
		Content json.RawMessage `json:"content"` // any JSON: a vendor's block may hold anything here
	}
	if json.Unmarshal(b, &head) != nil || head.Type == nil {
		return "", nil
	}
	_ = json.Unmarshal(head.Content, &nested) // nil unless an array
	return *head.Type, nested
}

// Where a block stands, for knows.
const (
	inResult = iota
	inToolResult
	inPrompt
)

// probes wrap a quoted type, where it stands, into the smallest result
// go-sdk decodes.
var probes = [...][2]string{
	inResult:     {`{"content":[{"type":`, `}]}`},
	inToolResult: {`{"content":[{"type":"tool_result","toolUseId":"x","content":[{"type":`, `}]}]}`},
	inPrompt:     {`{"messages":[{"role":"user","content":{"type":`, `}}]}`},
}

// known holds the types go-sdk knows where they stand (only those, so a
// server cannot grow it).
var known sync.Map // knownKey → true

type knownKey struct {
	where int
	typ   string
}

// knows reports whether go-sdk decodes a minimal block of type typ where it
// stands; "" (a block without a type, or not an object) counts as known,
// so that the decode reports it.
func knows(where int, typ string) bool {
	if typ == "" {
		return true
	}
	key := knownKey{where, typ}
	if _, ok := known.Load(key); ok {
		return true
	}
	t, _ := json.Marshal(typ)
	probe := append(append([]byte(probes[where][0]), t...), probes[where][1]...)
	var err error
	if where == inPrompt {
		err = json.Unmarshal(probe, new(mcp.GetPromptResult))
	} else {
		err = json.Unmarshal(probe, new(mcp.CallToolResult))
	}
	if err == nil {
		known.Store(key, true)
	}
	return err == nil
}

// lenient decodes b into *v; if that fails, it passes the elements of b's
// array field through keep (which may rewrite one) and decodes again. The
// first error stands when nothing changed or the second decode fails too.
func lenient[T any](b []byte, field string, v *T, keep func(json.RawMessage) (json.RawMessage, bool)) error {
	err := json.Unmarshal(b, v)
	if err == nil {
		return nil
	}
	rewritten := withFiltered(b, field, keep)
	if rewritten == nil {
		return err
	}
	var zero T
	*v = zero
	if json.Unmarshal(rewritten, v) != nil {
		*v = zero
		return err
	}
	return nil
}

// withFiltered returns obj with its array field passed through keep, or
// nil when obj is not an object with such an array or keep changed nothing.
func withFiltered(obj json.RawMessage, field string, keep func(json.RawMessage) (json.RawMessage, bool)) json.RawMessage {
	var top map[string]json.RawMessage
	var elems []json.RawMessage
	if json.Unmarshal(obj, &top) != nil || json.Unmarshal(top[field], &elems) != nil {
		return nil
	}
	changed := false
	kept := make([]json.RawMessage, 0, len(elems))
	for _, e := range elems {
		ne, ok := keep(e)
		if changed = changed || !ok || !bytes.Equal(ne, e); ok {
			kept = append(kept, ne)
		}
	}
	if !changed {
		return nil
	}
	raw, err := json.Marshal(kept)
	if err != nil {
		return nil
	}
	top[field] = raw
	out, err := json.Marshal(top)
	if err != nil {
		return nil
	}
	return out
}
