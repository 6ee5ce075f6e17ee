package mcpops

import (
	"bytes"
	"encoding/json"
)

// splitToolsMeta is the tools less each one's _meta, which the service's
// doctor strips from the tools it reports, and the service's toolsMetadata
// of them: {toolName: _meta} for each tool sent with a _meta (null
// included), the values as sent, in the tools' order. A name sent twice
// keeps its first place and its last _meta, as a JavaScript object's
// assignment does.
func splitToolsMeta(tools []json.RawMessage) ([]json.RawMessage, json.RawMessage) {
	var names []string
	metas := map[string]json.RawMessage{}
	for i, it := range tools {
		tools[i] = omit(it, "_meta")
		var t struct {
			Name string          `json:"name"`
			Meta json.RawMessage `json:"_meta"`
		}
		if json.Unmarshal(it, &t) != nil || t.Meta == nil {
			continue
		}
		if _, seen := metas[t.Name]; !seen {
			names = append(names, t.Name)
		}
		metas[t.Name] = t.Meta
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the name as written, not <>& escaped
	b.WriteByte('{')
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		_ = enc.Encode(n)       // a string always encodes
		b.Truncate(b.Len() - 1) // Encode's newline
		b.WriteByte(':')
		b.Write(metas[n])
	}
	b.WriteByte('}')
	return tools, b.Bytes()
}
