package servers

import (
	"bytes"
	"encoding/json"
)

// unwrapContent returns the MCP result inside b when b is the service
// route's {"content": <result>} rather than the reference's bare result:
// b has no non-null top-level field but a content object that has one.
// Otherwise b is returned as is. A null field counts as absent, since a
// JSON null decodes to nothing either way.
func unwrapContent(b []byte, field string) []byte {
	var outer map[string]json.RawMessage
	if json.Unmarshal(b, &outer) != nil || present(outer[field]) || !present(outer["content"]) {
		return b
	}
	var inner map[string]json.RawMessage
	if json.Unmarshal(outer["content"], &inner) != nil || !present(inner[field]) {
		return b
	}
	return outer["content"]
}

// present reports whether a member was sent with a non-null value.
func present(v json.RawMessage) bool {
	return v != nil && !bytes.Equal(bytes.TrimSpace(v), []byte("null"))
}
