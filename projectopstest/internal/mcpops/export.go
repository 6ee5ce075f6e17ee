package mcpops

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
)

// The fields the service's export keeps of each item, in its order; a
// field the server did not send stays out (the service's JSON drops it).
var (
	exportToolFields     = []string{"name", "description", "inputSchema", "outputSchema"}
	exportResourceFields = []string{"uri", "name", "description", "mimeType"}
	exportPromptFields   = []string{"name", "description", "arguments"}
)

// Export lists tools, resources and prompts in one snapshot, as the
// service does: every page of each listing (it asks without a cursor, and
// its MCP client then walks them all; see listEvery), or only the first
// page of each when b asks for firstPageOnly, each item cut down to the
// fields the service keeps, as the server sent them. A capability the
// server lacks, or advertises but does not serve, exports as an empty list
// (never 422). b may be nil: no body fields.
func Export(ctx context.Context, sc *Call, b *ConnBody) (ExportSnapshot, *edge.Error) {
	walk := listEvery
	if b != nil && b.OnlyFirstPage() {
		walk = listFirst
	}
	if herr := sc.Authorize(); herr != nil {
		return ExportSnapshot{}, herr
	}
	snap := ExportSnapshot{ExportSnapshot: servers.ExportSnapshot{ServerID: sc.ServerID}}
	herr := sc.Run(ctx, true, func(ctx context.Context, conn *mcpconn.Conn) error {
		caps := capsOf(conn)
		for _, l := range []struct {
			has    bool
			list   rawPager
			fields []string
			dst    *[]json.RawMessage
		}{
			{hasTools(caps), toolsAsSent, exportToolFields, &snap.Tools},
			{hasResources(caps), resourcesAsSent, exportResourceFields, &snap.Resources},
			{hasPrompts(caps), promptsAsSent, exportPromptFields, &snap.Prompts},
		} {
			if !l.has {
				continue
			}
			items, err := walk(ctx, conn.Session, l.list)
			if err != nil && !methodNotFound(ctx, err, conn) {
				return err
			}
			for _, it := range items {
				*l.dst = append(*l.dst, pick(it, l.fields))
			}
		}
		return nil
	})
	if herr != nil {
		return ExportSnapshot{}, herr
	}
	// A list that was not served is empty, never null.
	snap.Tools, snap.Resources, snap.Prompts = orEmpty(snap.Tools), orEmpty(snap.Resources), orEmpty(snap.Prompts)
	snap.ExportedAt = jsISO(sc.l.cfg.Now())
	return snap, nil
}

// pick is the object item with only fields, in fields' order, each value
// as sent; an item that is not an object is left as it is.
func pick(item json.RawMessage, fields []string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(item, &m) != nil || m == nil {
		return item
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for _, f := range fields {
		v, ok := m[f]
		if !ok {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes()
}
