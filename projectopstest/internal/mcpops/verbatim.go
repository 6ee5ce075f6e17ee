package mcpops

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
)

// The service returns what an MCP server answers verbatim (the reference's
// Tool is "as returned by the server", with extra fields; CallToolResult
// "verbatim"). go-sdk's types keep only what they model, so the double
// answers from the bytes the server sent (mcpconn.Raw) and falls back to
// go-sdk's encoding only when those could not be captured.

// verbatim is the captured result, else v encoded.
func verbatim(raw *mcpconn.Raw, v any) json.RawMessage {
	if b := raw.Result(); b != nil {
		return b
	}
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}

// verbatimItems is the list under field of the captured result, when it
// holds the items go-sdk decoded (as many); else the decoded items encoded.
func verbatimItems[T any](raw *mcpconn.Raw, field string, typed []T) []json.RawMessage {
	var res map[string]json.RawMessage
	var items []json.RawMessage
	if b := raw.Result(); b != nil && json.Unmarshal(b, &res) == nil &&
		json.Unmarshal(res[field], &items) == nil && len(items) == len(typed) {
		return items
	}
	out := make([]json.RawMessage, 0, len(typed))
	for _, it := range typed {
		out = append(out, verbatim(nil, it))
	}
	return out
}

// rawPager is a listing page function that answers items as sent.
type rawPager = func(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]json.RawMessage, string, error)

// asSent turns a typed page function into one answering the items under
// field as the server sent them.
func asSent[T any](field string, list func(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]*T, string, error)) rawPager {
	return func(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]json.RawMessage, string, error) {
		ctx, raw := mcpconn.CaptureRaw(ctx)
		items, next, err := list(ctx, cs, cursor)
		if err != nil {
			return nil, "", err
		}
		return verbatimItems(raw, field, items), next, nil
	}
}

var (
	toolsAsSent     = asSent("tools", listToolsPage)
	promptsAsSent   = asSent("prompts", listPromptsPage)
	resourcesAsSent = asSent("resources", listResourcesPage)
	templatesAsSent = asSent("resourceTemplates", listTemplatesPage)
)

// ExportSnapshot is servers.ExportSnapshot with the lists as the server
// sent their items.
type ExportSnapshot struct {
	servers.ExportSnapshot
	// ExportedAt as the service writes it (see jsISO), over the embedded
	// time.Time.
	ExportedAt string            `json:"exportedAt"`
	Tools      []json.RawMessage `json:"tools"`
	Resources  []json.RawMessage `json:"resources"`
	Prompts    []json.RawMessage `json:"prompts"`
}

// DoctorReport is servers.DoctorReport with the server's answers as it
// sent them: its initialization info, capabilities, listings and tools'
// _meta. The listings are arrays and ToolsMetadata an object in every
// report, empty when none, unserved, failed or not connected, as the
// service's (it starts them at [] and {}).
type DoctorReport struct {
	servers.DoctorReport
	// GeneratedAt as the service writes it (see jsISO), over the embedded
	// time.Time.
	GeneratedAt       string            `json:"generatedAt"`
	InitInfo          json.RawMessage   `json:"initInfo"`
	Capabilities      json.RawMessage   `json:"capabilities"`
	Tools             []json.RawMessage `json:"tools"`
	ToolsMetadata     json.RawMessage   `json:"toolsMetadata"`
	Resources         []json.RawMessage `json:"resources"`
	ResourceTemplates []json.RawMessage `json:"resourceTemplates"`
	Prompts           []json.RawMessage `json:"prompts"`
}

// fillUnset sets each listing still nil to an empty one, and
// ToolsMetadata to {}, so that none encodes as null.
func (r *DoctorReport) fillUnset() {
	for _, l := range []*[]json.RawMessage{&r.Tools, &r.Resources, &r.ResourceTemplates, &r.Prompts} {
		if *l == nil {
			*l = []json.RawMessage{}
		}
	}
	if r.ToolsMetadata == nil {
		r.ToolsMetadata = json.RawMessage("{}")
	}
}

// ValidateResult is servers.ValidateResult with the initialization info's
// parts as the server sent them.
type ValidateResult struct {
	servers.ValidateResult
	InitInfo json.RawMessage `json:"initInfo"`
}

// omit is the object item without its member field, the others in their
// order and as sent; anything else, or an object without field, is item.
func omit(item json.RawMessage, field string) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(item))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return item
	}
	var b bytes.Buffer
	b.WriteByte('{')
	found := false
	for dec.More() {
		from := dec.InputOffset()
		k, err := dec.Token()
		// The key as written (escapes and all): from the previous value's
		// end, past the comma and blanks, to the key's end.
		raw := bytes.TrimLeft(item[from:dec.InputOffset()], ", \t\r\n")
		var v json.RawMessage
		if err != nil || dec.Decode(&v) != nil {
			return item
		}
		if key, _ := k.(string); key == field {
			found = true
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.Write(raw)
		b.WriteByte(':')
		b.Write(v)
	}
	if !found {
		return item
	}
	b.WriteByte('}')
	return b.Bytes()
}

// jsISO is t as the service's timestamps are written, JavaScript's
// Date#toISOString: UTC, exactly three fractional digits (truncated).
func jsISO(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
