package projectopstest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
)

// pagedServer serves 5 tools, 3 prompts and 3 resources two to a page.
func pagedServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "paged", Version: "1.0.0"}, &mcp.ServerOptions{PageSize: 2})
	for i := range 5 {
		s.AddTool(&mcp.Tool{Name: fmt.Sprintf("t%d", i), InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
			})
	}
	for i := range 3 {
		s.AddPrompt(&mcp.Prompt{Name: fmt.Sprintf("p%d", i)}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}}, nil
		})
		uri := fmt.Sprintf("file:///r%d", i)
		s.AddResource(&mcp.Resource{URI: uri, Name: fmt.Sprintf("r%d", i)}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, Text: "x"}}}, nil
		})
	}
	return s
}

// A list call without a cursor returns every page of the MCP server's
// listing, with no nextCursor; an empty cursor counts as none.
//
// Source: the v1 list routes (routes/v1/tools.ts, prompts.ts, resources.ts)
// call sdk/src/operations.ts listTools/listPrompts/listResources, which pass
// no cursor to MCPClientManager when the body's cursor is absent or empty
// (`params.cursor ? { cursor } : undefined`); MCPClientManager.listTools'
// doc comment (sdk/src/mcp-client-manager/MCPClientManager.ts) and
// sdk/tests/pagination-parity.integration.test.ts ("listTools(): all 12
// tools, one wire request per page") show such a call aggregates every page;
// routes/mcp/__tests__/prompts.test.ts "returns the complete multi-page set
// by default (no cursor)" asserts nextCursor is then absent.
func TestListWithoutCursorReturnsEveryPage(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "paged", MCPServer: pagedServer()}))
	tg := inproc(srv)
	for _, c := range []struct {
		op   string
		want int
	}{{"tools", 5}, {"prompts", 3}, {"resources", 3}} {
		for _, body := range []string{``, `{}`, `{"cursor":""}`} {
			r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/"+c.op, ws.APIKey, body)
			var page struct {
				Items      []json.RawMessage `json:"items"`
				NextCursor *string           `json:"nextCursor"`
			}
			r.decode(t, &page)
			if len(page.Items) != c.want || page.NextCursor != nil {
				t.Errorf("POST /%s %q: %d items, nextCursor %v; want all %d items and no nextCursor (the service's client aggregates every page on a call without cursor)",
					c.op, body, len(page.Items), page.NextCursor, c.want)
			}
		}
	}
}

// An export holds every tool, resource and prompt of the server, not only
// the first page of each listing.
//
// Source: routes/v1/export.ts -> server/utils/export-helpers.ts exportServer,
// which calls manager.listTools/listResources/listPrompts(serverId) without a
// cursor; the manager's client then walks every page
// (sdk/tests/pagination-parity.integration.test.ts, MCPClientManager.listTools
// doc comment).
func TestExportCoversEveryPage(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "paged", MCPServer: pagedServer()}))
	r := inproc(srv).call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/export", ws.APIKey, `{}`)
	var snap struct {
		Tools, Resources, Prompts []json.RawMessage
	}
	r.decode(t, &snap)
	if len(snap.Tools) != 5 || len(snap.Resources) != 3 || len(snap.Prompts) != 3 {
		t.Errorf("export has %d tools, %d resources, %d prompts; want 5, 3, 3 (every page)", len(snap.Tools), len(snap.Resources), len(snap.Prompts))
	}
}

// firstPageOnly true makes a listing asked without a cursor, and export,
// answer the server's first page only, with no nextCursor; false is the
// whole listing (a cursor's page is left alone: see mcpops'
// TestFirstPageOnlyLeavesCursorPages).
//
// Source: routes/web/auth.ts extractMcpInitializeOptions turns
// `firstPageOnly === true` into an initialize pin, which the client
// manager applies as sdk/src/mcp-client-manager/transport-utils.ts
// wrapTransportForFirstPageOnly: it strips nextCursor from the answer to a
// list request sent without a cursor, so the client's page walk stops
// after page one; requests with a cursor are left alone.
func TestFirstPageOnlyListsPageOne(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "paged", MCPServer: pagedServer()}))
	tg := inproc(srv)
	type page struct {
		Items      []json.RawMessage `json:"items"`
		NextCursor *string           `json:"nextCursor"`
	}
	for _, c := range []struct {
		op   string
		want int // the whole listing; the server's pages hold 2
	}{{"tools", 5}, {"prompts", 3}, {"resources", 3}} {
		path := "/projects/" + ws.ProjectID + "/servers/" + id + "/" + c.op
		var first, all page
		tg.call(t, "POST", path, ws.APIKey, `{"firstPageOnly":true}`).decode(t, &first)
		if len(first.Items) != 2 || first.NextCursor != nil {
			t.Errorf("%s with firstPageOnly: %d items, nextCursor %v; want the first page's 2 and no cursor", c.op, len(first.Items), first.NextCursor)
		}
		tg.call(t, "POST", path, ws.APIKey, `{"firstPageOnly":false}`).decode(t, &all)
		if len(all.Items) != c.want || all.NextCursor != nil {
			t.Errorf("%s with firstPageOnly false: %d items, want all %d", c.op, len(all.Items), c.want)
		}
	}
	var snap struct{ Tools, Resources, Prompts []json.RawMessage }
	tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/export", ws.APIKey, `{"firstPageOnly":true}`).decode(t, &snap)
	if len(snap.Tools) != 2 || len(snap.Resources) != 2 || len(snap.Prompts) != 2 {
		t.Errorf("export with firstPageOnly has %d tools, %d resources, %d prompts; want each first page's 2",
			len(snap.Tools), len(snap.Resources), len(snap.Prompts))
	}
}
