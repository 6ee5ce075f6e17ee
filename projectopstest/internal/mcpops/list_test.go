package mcpops

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// cursorServer answers tools/list with one tool per page, named after the
// page's cursor and described by desc bytes, and the cursor next gives;
// asks counts the listings it served.
func cursorServer(next func(cursor string) string, desc int) (s *mcp.Server, asks *atomic.Int64) {
	s = mcp.NewServer(&mcp.Implementation{Name: "cursors", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "t", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	asks = new(atomic.Int64)
	s.AddReceivingMiddleware(func(h mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, m string, req mcp.Request) (mcp.Result, error) {
			if m != "tools/list" {
				return h(ctx, m, req)
			}
			asks.Add(1)
			cursor := req.GetParams().(*mcp.ListToolsParams).Cursor
			tool := &mcp.Tool{Name: "t" + cursor, Description: strings.Repeat("x", desc), InputSchema: map[string]any{"type": "object"}}
			return &mcp.ListToolsResult{Tools: []*mcp.Tool{tool}, NextCursor: next(cursor)}, nil
		}
	})
	return s, asks
}

// endless gives a new cursor every page.
func endless() func(string) string {
	var n atomic.Int64
	return func(string) string { return strconv.FormatInt(n.Add(1), 10) }
}

// errOf is herr as an error, nil when there is none.
func errOf(herr *edge.Error) error {
	if herr == nil {
		return nil
	}
	return herr
}

func openServer(l *Layer, s *mcp.Server) *Call {
	return l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_c", URL: "http://inprocess.invalid/cursors",
		Transport: servers.TransportHTTP, Target: mcpconn.Target{Transport: mcpconn.TransportInProcess, Server: s}})
}

func toolNames(t *testing.T, items []json.RawMessage) []string {
	t.Helper()
	var out []string
	for _, it := range items {
		var tool mcp.Tool
		if err := json.Unmarshal(it, &tool); err != nil {
			t.Fatalf("%s: %v", it, err)
		}
		out = append(out, tool.Name)
	}
	return out
}

// A listing without a cursor that meets a cursor again stops there and
// answers what it gathered, as the service's MCP client does; a listing at
// an explicit cursor answers that one page and its cursor.
func TestListWithoutCursorStopsAtRepeatedCursor(t *testing.T) {
	t.Parallel()
	loop := map[string]string{"": "a", "a": "b", "b": "a"}
	s, asks := cursorServer(func(c string) string { return loop[c] }, 0)
	sc := openServer(newLayer(t), s)
	page, herr := ListTools(t.Context(), sc, &ListBody{})
	if herr != nil {
		t.Fatal(herr)
	}
	if got := strings.Join(toolNames(t, page.Items), ","); got != "t,ta,tb" || page.NextCursor != "" || asks.Load() != 3 {
		t.Errorf("listing = %s, cursor %q after %d asks; want t,ta,tb, no cursor, 3 asks", got, page.NextCursor, asks.Load())
	}
	page, herr = ListTools(t.Context(), sc, &ListBody{ListParams: servers.ListParams{Cursor: "a"}})
	if herr != nil {
		t.Fatal(herr)
	}
	if got := strings.Join(toolNames(t, page.Items), ","); got != "ta" || page.NextCursor != "b" {
		t.Errorf("page at a = %s, cursor %q; want ta and b", got, page.NextCursor)
	}
}

// A listing whose cursors never end fails after the service's client's 64
// pages, with the double's verdict (500), not a listing cut short in
// silence.
func TestListWithoutCursorPageCap(t *testing.T) {
	t.Parallel()
	s, asks := cursorServer(endless(), 0)
	sc := openServer(newLayer(t), s)
	for name, list := range map[string]func() error{
		"tools":  func() error { _, herr := ListTools(t.Context(), sc, &ListBody{}); return errOf(herr) },
		"export": func() error { _, herr := Export(t.Context(), sc, nil); return errOf(herr) },
	} {
		before := asks.Load()
		err := list()
		if err == nil || !strings.Contains(err.Error(), string(shared.CodeInternal)) || !strings.Contains(err.Error(), "64 pages") {
			t.Errorf("%s: endless listing = %v, want INTERNAL_ERROR past 64 pages", name, err)
		}
		if got := asks.Load() - before; got != maxEveryPages {
			t.Errorf("%s: asked %d pages, want %d", name, got, maxEveryPages)
		}
	}
}

// A listing without a cursor fails once its items pass its byte bound
// (maxEveryBytes for the routes; a small one here, to keep the test
// light): the double answers it in one response, which stays bounded.
func TestListWithoutCursorByteCap(t *testing.T) {
	t.Parallel()
	s, asks := cursorServer(endless(), 1<<10)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	items, err := listBounded(t.Context(), cs, toolsAsSent, maxEveryPages, 8<<10)
	var f *mcpconn.Failure
	if !errors.As(err, &f) || f.Kind != mcpconn.ServerError || f.Answered || !strings.Contains(f.Message, "8 KiB") || items != nil {
		t.Errorf("oversized listing = %d items, %v; want the double's verdict naming the 8 KiB bound", len(items), err)
	}
	if got := asks.Load(); got > 8 {
		t.Errorf("asked %d pages of over 1 KiB, want the walk stopped once past 8 KiB", got)
	}
}

// Under firstPageOnly a listing without a cursor asks the server once and
// drops its nextCursor, while a listing at a cursor answers that page and
// its cursor as without the knob (the service's client truncates only the
// cursorless request).
func TestFirstPageOnlyLeavesCursorPages(t *testing.T) {
	t.Parallel()
	s, asks := cursorServer(endless(), 0)
	sc := openServer(newLayer(t), s)
	first := ServerFields{FirstPageOnly: json.RawMessage(`true`)}
	page, herr := ListTools(t.Context(), sc, &ListBody{ServerFields: first})
	if herr != nil {
		t.Fatal(herr)
	}
	if got := strings.Join(toolNames(t, page.Items), ","); got != "t" || page.NextCursor != "" || asks.Load() != 1 {
		t.Errorf("first page only = %s, cursor %q after %d asks; want t, no cursor, 1 ask", got, page.NextCursor, asks.Load())
	}
	page, herr = ListTools(t.Context(), sc, &ListBody{ListParams: servers.ListParams{Cursor: "a"}, ServerFields: first})
	if herr != nil {
		t.Fatal(herr)
	}
	if got := strings.Join(toolNames(t, page.Items), ","); got != "ta" || page.NextCursor == "" {
		t.Errorf("page at a with firstPageOnly = %s, cursor %q; want ta and the server's next cursor", got, page.NextCursor)
	}
}
