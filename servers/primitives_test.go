package servers_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

func names[T any](items []T, name func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = name(it)
	}
	return out
}

func toolName(t *mcp.Tool) string        { return t.Name }
func promptName(p *mcp.Prompt) string    { return p.Name }
func resourceURI(r *mcp.Resource) string { return r.URI }

func text(t *testing.T, c []mcp.Content) string {
	t.Helper()
	if len(c) != 1 {
		t.Fatalf("content has %d blocks, want 1", len(c))
	}
	tc, ok := c[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, want text", c[0])
	}
	return tc.Text
}

func TestValidate(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := addMCP(t, f, "full", fullServer())
	v, err := f.C.Servers.Validate(t.Context(), f.WS.ProjectID, id)
	if err != nil {
		t.Fatal(err)
	}
	// initInfo is the service's initialization info, not the initialize
	// result: serverVersion and serverCapabilities, plus the transport.
	ii := v.InitInfo
	if !v.Success || v.Status != "connected" || ii == nil || ii.ServerVersion == nil {
		t.Fatalf("Validate = %+v", v)
	}
	if ii.ServerVersion.Name != "full" || ii.ServerVersion.Version != "1.2.3" || ii.ProtocolVersion == "" ||
		ii.Transport != servers.InitTransportStreamableHTTP || ii.ClientCapabilities == nil {
		t.Errorf("initInfo = %+v / %+v", ii, ii.ServerVersion)
	}
	if c := ii.ServerCapabilities; c == nil || c.Tools == nil || c.Prompts == nil || c.Resources == nil {
		t.Errorf("capabilities = %+v", c)
	}
	if n := f.Srv.MCPSessions(); n != 0 {
		t.Errorf("validate left %d pooled sessions; it uses a one-off connection", n)
	}
}

// firstToolsCursor is the nextCursor of the first page of fullServer's
// tools, asked of the MCP server directly (the service answers a listing
// without a cursor with every page, so it hands out no such cursor).
// go-sdk's cursors name the page's last item, so any fullServer takes it.
func firstToolsCursor(t *testing.T) string {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := fullServer().Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil || res.NextCursor == "" {
		t.Fatalf("first page of tools: %+v, %v", res, err)
	}
	return res.NextCursor
}

// A listing without a cursor is every page in one, with no next cursor
// (the service's MCP client aggregates them); one at an explicit cursor is
// that page and its cursor. The iterators work with both: started without
// a cursor they yield every item once, started at one they page on.
func TestListingsFollowCursors(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p, id := f.WS.ProjectID, addMCP(t, f, "full", fullServer())
	ctx := t.Context()
	every := []string{"echo", "extra_0", "extra_1", "fail", "sum"}

	all, err := f.C.Servers.ListTools(ctx, p, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(every, names(all.Items, toolName)); diff != "" || all.NextCursor != "" {
		t.Fatalf("listing without cursor (-want +got):\n%s\ncursor %q, want none", diff, all.NextCursor)
	}
	cursor := firstToolsCursor(t)
	second, err := f.C.Servers.ListTools(ctx, p, id, &servers.ListParams{Cursor: cursor})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(every[2:4], names(second.Items, toolName)); diff != "" || second.NextCursor == "" {
		t.Fatalf("page at a cursor (-want +got):\n%s\ncursor %q, want the next page's", diff, second.NextCursor)
	}
	rest, err := collect(f.C.Servers.AllTools(ctx, p, id, &servers.ListParams{Cursor: cursor}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(every[2:], names(rest, toolName)); diff != "" {
		t.Errorf("tools from a cursor on (-want +got):\n%s", diff)
	}

	tools, err := collect(f.C.Servers.AllTools(ctx, p, id, nil))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(every, names(tools, toolName)); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	// Input schemas come through as the server declared them.
	echo := tools[0].InputSchema.(map[string]any)
	props := echo["properties"].(map[string]any)
	if q := props["query"].(map[string]any); q["type"] != "string" || q["description"] != "what to look up" {
		t.Errorf("echo inputSchema = %v", echo)
	}
	if tools[4].OutputSchema == nil {
		t.Error("sum has no outputSchema")
	}

	prompts, err := collect(f.C.Servers.AllPrompts(ctx, p, id, nil))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"alpha", "beta", "greet"}, names(prompts, promptName)); diff != "" {
		t.Errorf("prompts (-want +got):\n%s", diff)
	}
	if a := prompts[2].Arguments; len(a) != 3 || a[0].Name != "name" || !a[0].Required {
		t.Errorf("greet arguments = %+v", a)
	}
	resources, err := collect(f.C.Servers.AllResources(ctx, p, id, nil))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"file:///a.txt", "file:///b.bin", "file:///c.md"}, names(resources, resourceURI)); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
	// Every page's session ended with its request.
	if n := f.Srv.MCPSessions(); n != 0 {
		t.Errorf("MCPSessions = %d, want 0", n)
	}
}

func TestCallTool(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p, id := f.WS.ProjectID, addMCP(t, f, "full", fullServer())
	ctx := t.Context()

	res, err := f.C.Servers.CallTool(ctx, p, id, servers.CallToolParams{ToolName: "echo", Parameters: map[string]any{"query": "hi"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := text(t, res.Content); got != "echo: hi" || res.IsError {
		t.Errorf("echo = %q (isError %v)", got, res.IsError)
	}
	res, err = f.C.Servers.CallTool(ctx, p, id, servers.CallToolParams{ToolName: "sum", Parameters: map[string]any{"A": 2, "B": 3}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"sum": float64(5)}, res.StructuredContent); diff != "" {
		t.Errorf("sum structuredContent (-want +got):\n%s", diff)
	}
	// A tool-level failure is a result, not an error.
	res, err = f.C.Servers.CallTool(ctx, p, id, servers.CallToolParams{ToolName: "fail"})
	if err != nil {
		t.Fatalf("fail: err = %v, want a result with isError", err)
	}
	if !res.IsError || text(t, res.Content) != "it broke" {
		t.Errorf("fail = %+v", res)
	}
	// Bad arguments are reported by the tool as isError too (MCP rules).
	res, err = f.C.Servers.CallTool(ctx, p, id, servers.CallToolParams{ToolName: "sum", Parameters: map[string]any{"A": "two"}})
	if err != nil || !res.IsError {
		t.Errorf("sum with a bad argument: %+v, %v; want isError", res, err)
	}
}

func TestGetPromptAndReadResource(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p, id := f.WS.ProjectID, addMCP(t, f, "full", fullServer())
	ctx := t.Context()

	gp, err := f.C.Servers.GetPrompt(ctx, p, id, servers.GetPromptParams{PromptName: "greet",
		Arguments: map[string]any{"name": "Ann", "times": 3, "loud": true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(gp.Messages) != 1 || gp.Messages[0].Role != "user" || gp.Description != "greet" {
		t.Fatalf("GetPrompt = %+v", gp)
	}
	if got := text(t, []mcp.Content{gp.Messages[0].Content}); got != "hello Ann x3 loud=true" {
		t.Errorf("rendered %q", got)
	}

	rr, err := f.C.Servers.ReadResource(ctx, p, id, servers.ReadResourceParams{URI: "file:///a.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rr.Contents) != 1 || rr.Contents[0].Text != "alpha text" || rr.Contents[0].MIMEType != "text/plain" {
		t.Errorf("text resource = %+v", rr.Contents)
	}
	rr, err = f.C.Servers.ReadResource(ctx, p, id, servers.ReadResourceParams{URI: "file:///b.bin"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rr.Contents) != 1 || !bytes.Equal(rr.Contents[0].Blob, []byte{0, 1, 2, 254, 255}) || rr.Contents[0].Text != "" {
		t.Errorf("blob resource = %+v", rr.Contents)
	}
	// A URI matching a resource template is read through it.
	rr, err = f.C.Servers.ReadResource(ctx, p, id, servers.ReadResourceParams{URI: "file:///docs/intro"})
	if err != nil || rr.Contents[0].Text != "doc" {
		t.Errorf("templated resource = %+v, %v", rr, err)
	}
}

func TestExport(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p, id := f.WS.ProjectID, addMCP(t, f, "full", fullServer())
	snap, err := f.C.Servers.Export(t.Context(), p, id)
	if err != nil {
		t.Fatal(err)
	}
	if snap.ServerID != id || !snap.ExportedAt.Equal(t0) {
		t.Errorf("serverId %q exportedAt %v", snap.ServerID, snap.ExportedAt)
	}
	// As the service, export asks each listing without a cursor, which
	// answers every page: the server's 5 tools, 3 prompts and 3 resources,
	// pageSize to a page.
	if len(snap.Tools) != 5 || len(snap.Prompts) != 3 || len(snap.Resources) != 3 {
		t.Errorf("snapshot has %d tools, %d prompts, %d resources; want every page's 5, 3 and 3",
			len(snap.Tools), len(snap.Prompts), len(snap.Resources))
	}
	// Exported again later, the same server diffs as equal.
	f.Clock.Advance(1e9)
	again, err := f.C.Servers.Export(t.Context(), p, id)
	if err != nil {
		t.Fatal(err)
	}
	if d := servers.Diff(snap, again); !d.Equal() || again.ExportedAt.Equal(snap.ExportedAt) {
		t.Errorf("re-export differs:\n%s", d)
	}
	// A server without prompts or resources exports them as empty lists.
	only := addMCP(t, f, "tools-only", toolsOnlyServer())
	snap, err = f.C.Servers.Export(t.Context(), p, only)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Tools) != 1 || snap.Prompts == nil || len(snap.Prompts) != 0 || snap.Resources == nil {
		t.Errorf("tools-only snapshot = %+v", snap)
	}
}

func TestDoctorReady(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.WS.ProjectID
	id := addMCP(t, f, "full", fullServer())
	rep, err := f.C.Servers.Doctor(t.Context(), p, id)
	if err != nil {
		t.Fatal(err)
	}
	// The report names what it examined, labelled by the server id (the
	// SDK sends no serverName).
	want := servers.DoctorTarget{Kind: servers.DoctorTargetHTTP, Scope: servers.DoctorScopeHosted, ProjectID: p, ServerID: id,
		Label: id, URL: projectopstest.InProcessServerURL("full")}
	if rep.Target == nil || *rep.Target != want {
		t.Errorf("target = %+v, want %+v", rep.Target, want)
	}
	if rep.Status != servers.DoctorReady || rep.Error != nil || rep.Connection.Status != servers.ConnectionConnected {
		t.Fatalf("report = %+v", rep)
	}
	c := rep.Checks
	for name, ch := range map[string]*servers.DoctorCheck{"connection": c.Connection, "initialization": c.Initialization,
		"capabilities": c.Capabilities, "tools": c.Tools, "resources": c.Resources, "resourceTemplates": c.ResourceTemplates, "prompts": c.Prompts} {
		if ch == nil || ch.Status != servers.CheckOK || ch.Detail == "" {
			t.Errorf("check %s = %+v", name, ch)
		}
	}
	if c.Tools.Detail != "5 tools" || len(rep.Tools) != 5 || len(rep.Prompts) != 3 || len(rep.Resources) != 3 || len(rep.ResourceTemplates) != 1 {
		t.Errorf("primitives: %q, %d tools %d prompts %d resources %d templates", c.Tools.Detail,
			len(rep.Tools), len(rep.Prompts), len(rep.Resources), len(rep.ResourceTemplates))
	}
	if !rep.GeneratedAt.Equal(t0) || rep.InitInfo == nil || rep.InitInfo.ServerVersion == nil || rep.Capabilities == nil {
		t.Errorf("generatedAt %v initInfo %v capabilities %v", rep.GeneratedAt, rep.InitInfo, rep.Capabilities)
	}

	// A listing the server does not advertise is, as in the service, an ok
	// step of none, and the server is still ready: the service asks
	// resource templates regardless, and a go-sdk server without resources
	// answers an empty list (skipped is only for method not found).
	rep, err = f.C.Servers.Doctor(t.Context(), p, addMCP(t, f, "tools-only", toolsOnlyServer()))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != servers.DoctorReady || rep.Checks.Prompts.Status != servers.CheckOK ||
		rep.Checks.Resources.Status != servers.CheckOK || rep.Checks.Tools.Status != servers.CheckOK ||
		rep.Checks.ResourceTemplates.Status != servers.CheckOK || !strings.HasPrefix(rep.Checks.ResourceTemplates.Detail, "0 resource templates") ||
		!strings.HasPrefix(rep.Checks.Prompts.Detail, "0 prompts") {
		t.Errorf("tools-only report = %+v / %+v", rep, rep.Checks)
	}
}

// A tool's _meta, stripped from the report's tools, is in ToolsMetadata
// by tool name, as the server sent it; a report without any has it empty.
func TestDoctorToolsMetadata(t *testing.T) {
	t.Parallel()
	f := setup(t)
	s := mcp.NewServer(&mcp.Implementation{Name: "meta", Version: "1"}, nil)
	h := func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{}}, nil, nil
	}
	mcp.AddTool(s, &mcp.Tool{Name: "a", Meta: mcp.Meta{"vendor/x": "y"}}, h)
	mcp.AddTool(s, &mcp.Tool{Name: "b"}, h)
	rep, err := f.C.Servers.Doctor(t.Context(), f.WS.ProjectID, addMCP(t, f, "meta", s))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.ToolsMetadata) != 1 || string(rep.ToolsMetadata["a"]) != `{"vendor/x":"y"}` || rep.Tools[0].Meta != nil {
		t.Errorf("toolsMetadata = %s; tool a's _meta %v; want {a: {\"vendor/x\":\"y\"}} and the tool without it", rep.ToolsMetadata, rep.Tools[0].Meta)
	}
	rep, err = f.C.Servers.Doctor(t.Context(), f.WS.ProjectID, addMCP(t, f, "tools-only", toolsOnlyServer()))
	if err != nil || rep.ToolsMetadata == nil || len(rep.ToolsMetadata) != 0 {
		t.Errorf("toolsMetadata without any _meta = %v (%v); want {}", rep.ToolsMetadata, err)
	}
}
