package mcpops

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// keys is the sorted member names of the JSON object b.
func keys(t *testing.T, b json.RawMessage) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return slices.Sorted(maps.Keys(m))
}

// initInfo is the service's initialization info (its client manager's),
// not the MCP initialize result; a part the server did not send
// (instructions) is left out.
func TestInitInfoIsTheServicesSummary(t *testing.T) {
	t.Parallel()
	l := newLayer(t)
	sc := open(l, false)
	v, herr := Validate(t.Context(), sc)
	if herr != nil {
		t.Fatal(herr)
	}
	rep, herr := Doctor(t.Context(), sc, nil)
	if herr != nil {
		t.Fatal(herr)
	}
	want := []string{"clientCapabilities", "protocolVersion", "serverCapabilities", "serverVersion", "transport"}
	for name, raw := range map[string]json.RawMessage{"validate": v.InitInfo, "doctor": rep.InitInfo} {
		if got := keys(t, raw); !slices.Equal(got, want) {
			t.Errorf("%s initInfo keys = %v, want %v", name, got, want)
		}
		var ii servers.InitInfo
		if err := json.Unmarshal(raw, &ii); err != nil || ii.Transport != servers.InitTransportStreamableHTTP ||
			ii.ServerVersion == nil || ii.ServerVersion.Name != "echo" || ii.ServerCapabilities == nil || ii.ServerCapabilities.Tools == nil {
			t.Errorf("%s initInfo = %s (%v)", name, raw, err)
		}
	}

	s := mcp.NewServer(&mcp.Implementation{Name: "told", Version: "1"}, &mcp.ServerOptions{Instructions: "call echo first"})
	told := l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_2", URL: "http://inprocess.invalid/told",
		Transport: servers.TransportHTTP, Target: mcpconn.Target{Transport: mcpconn.TransportInProcess, Server: s}})
	v, herr = Validate(t.Context(), told)
	var ii servers.InitInfo
	if herr != nil || json.Unmarshal(v.InitInfo, &ii) != nil || ii.Instructions != "call echo first" {
		t.Errorf("initInfo with instructions = %s, %v", v.InitInfo, herr)
	}
}

// The transport an initInfo names is the service's: streamable-http, sse
// or stdio.
func TestInitTransport(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{mcpconn.TransportHTTP: "streamable-http", mcpconn.TransportSSE: "sse",
		mcpconn.TransportStdio: "stdio", mcpconn.TransportInProcess: "streamable-http"} {
		if got := initTransport(in); got != want {
			t.Errorf("initTransport(%q) = %q, want %q", in, got, want)
		}
	}
}

// pagedServer has three tools (the first with title, annotations and
// _meta), three resources and three prompts, in pages of two.
func pagedServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "paged", Version: "1"}, &mcp.ServerOptions{PageSize: 2})
	h := func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{}}, nil, nil
	}
	mcp.AddTool(s, &mcp.Tool{Name: "a", Title: "A", Description: "first", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Meta: mcp.Meta{"vendor/x": "y"}}, h)
	mcp.AddTool(s, &mcp.Tool{Name: "b"}, h)
	mcp.AddTool(s, &mcp.Tool{Name: "c"}, h)
	read := func(_ context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: r.Params.URI, Text: "x"}}}, nil
	}
	for _, n := range []string{"a", "b", "c"} {
		s.AddResource(&mcp.Resource{URI: "file:///" + n, Name: n, Title: "T" + n, MIMEType: "text/plain", Size: 1}, read)
		s.AddPrompt(&mcp.Prompt{Name: n, Title: "T" + n, Arguments: []*mcp.PromptArgument{{Name: "x"}}},
			func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				return &mcp.GetPromptResult{}, nil
			})
	}
	return s
}

// Export holds every page of each listing (the service asks without a
// cursor, and its client walks them all) and keeps the fields the service
// keeps, in its order; a field the server did not send (a description)
// stays out.
func TestExportEveryPageServiceFields(t *testing.T) {
	t.Parallel()
	l := newLayer(t)
	sc := l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_3", URL: "http://inprocess.invalid/paged",
		Transport: servers.TransportHTTP, Target: mcpconn.Target{Transport: mcpconn.TransportInProcess, Server: pagedServer()}})
	snap, herr := Export(t.Context(), sc, nil)
	if herr != nil {
		t.Fatal(herr)
	}
	for name, items := range map[string][]json.RawMessage{"tools": snap.Tools, "resources": snap.Resources, "prompts": snap.Prompts} {
		if len(items) != 3 {
			t.Errorf("%d %s exported; want all 3 of its two pages", len(items), name)
		}
	}
	for _, c := range []struct {
		got  json.RawMessage
		want string
	}{
		{snap.Tools[0], `{"name":"a","description":"first","inputSchema":{"type":"object"}}`},
		{snap.Tools[1], `{"name":"b","inputSchema":{"type":"object"}}`},
		{snap.Tools[2], `{"name":"c","inputSchema":{"type":"object"}}`},
		{snap.Prompts[2], `{"name":"c","arguments":[{"name":"x"}]}`},
		{snap.Resources[0], `{"uri":"file:///a","name":"a","mimeType":"text/plain"}`},
		{snap.Prompts[0], `{"name":"a","arguments":[{"name":"x"}]}`},
	} {
		if string(c.got) != c.want {
			t.Errorf("exported item = %s, want %s", c.got, c.want)
		}
	}
}

// withoutListing makes s answer method to "method not found", as a server
// that advertises a capability but does not serve its listing.
func withoutListing(s *mcp.Server, method string) *mcp.Server {
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, m string, req mcp.Request) (mcp.Result, error) {
			if m == method {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found"}
			}
			return next(ctx, m, req)
		}
	})
	return s
}

// asked records the methods s receives.
func asked(s *mcp.Server) (*mcp.Server, func() []string) {
	var mu sync.Mutex
	var methods []string
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, m string, req mcp.Request) (mcp.Result, error) {
			mu.Lock()
			methods = append(methods, m)
			mu.Unlock()
			return next(ctx, m, req)
		}
	})
	return s, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(methods)
	}
}

// The service asks tools, resources and resource templates whatever the
// server advertises, and prompts unless its capabilities leave them out; a
// listing not asked or answered method not found is an ok step of none,
// but resource templates are skipped only on method not found.
func TestDoctorUnservedListingsAreOK(t *testing.T) {
	t.Parallel()
	l := newLayer(t)
	s, methods := asked(echoServer()) // tools only
	sc := l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_3", URL: "http://inprocess.invalid/echo",
		Transport: servers.TransportHTTP, Target: mcpconn.Target{Transport: mcpconn.TransportInProcess, Server: s}})
	rep, herr := Doctor(t.Context(), sc, nil)
	if herr != nil {
		t.Fatal(herr)
	}
	c := rep.Checks
	// go-sdk answers an unadvertised resources listing with an empty one.
	for name, ch := range map[string]*servers.DoctorCheck{"resources": c.Resources, "resource templates": c.ResourceTemplates, "prompts": c.Prompts} {
		if ch.Status != servers.CheckOK || !strings.HasPrefix(ch.Detail, "0 "+name) {
			t.Errorf("unadvertised %s = %+v, want ok with 0", name, ch)
		}
	}
	if rep.Status != servers.DoctorReady {
		t.Errorf("status %s", rep.Status)
	}
	got := methods()
	for _, m := range []string{"tools/list", "resources/list", "resources/templates/list"} {
		if !slices.Contains(got, m) {
			t.Errorf("%s not asked; the service asks it whatever the server advertises (asked %v)", m, got)
		}
	}
	if slices.Contains(got, "prompts/list") {
		t.Errorf("prompts/list asked of a server without the prompts capability (asked %v)", got)
	}

	s = withoutListing(withoutListing(withoutListing(withoutListing(pagedServer(),
		"prompts/list"), "resources/templates/list"), "tools/list"), "resources/list")
	sc = l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_4", URL: "http://inprocess.invalid/paged",
		Transport: servers.TransportHTTP, Target: mcpconn.Target{Transport: mcpconn.TransportInProcess, Server: s}})
	rep, herr = Doctor(t.Context(), sc, nil)
	if herr != nil {
		t.Fatal(herr)
	}
	c = rep.Checks
	for name, ch := range map[string]*servers.DoctorCheck{"tools": c.Tools, "resources": c.Resources, "prompts": c.Prompts} {
		if ch.Status != servers.CheckOK || !strings.HasPrefix(ch.Detail, "0 "+name) {
			t.Errorf("unserved %s = %+v, want ok with 0", name, ch)
		}
	}
	if c.ResourceTemplates.Status != servers.CheckSkipped || rep.Status != servers.DoctorReady {
		t.Errorf("unserved templates %+v, status %s; want skipped, ready", c.ResourceTemplates, rep.Status)
	}
}

// failing makes s fail each of methods with an error naming it.
func failing(s *mcp.Server, methods ...string) *mcp.Server {
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, m string, req mcp.Request) (mcp.Result, error) {
			if slices.Contains(methods, m) {
				return nil, errors.New(m + " exploded")
			}
			return next(ctx, m, req)
		}
	})
	return s
}

// A partial report carries the first failed listing's {code, message},
// first in the service's order: tools, resources, prompts, templates.
func TestDoctorPartialCarriesFirstError(t *testing.T) {
	t.Parallel()
	l := newLayer(t)
	for _, c := range []struct {
		fail []string
		want string
	}{
		{[]string{"prompts/list", "resources/list"}, "resources/list exploded"},
		{[]string{"resources/templates/list", "prompts/list"}, "prompts/list exploded"},
		{[]string{"resources/templates/list"}, "resources/templates/list exploded"},
	} {
		sc := l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_5", URL: "http://inprocess.invalid/paged",
			Transport: servers.TransportHTTP, Target: mcpconn.Target{Transport: mcpconn.TransportInProcess, Server: failing(pagedServer(), c.fail...)}})
		rep, herr := Doctor(t.Context(), sc, nil)
		if herr != nil {
			t.Fatal(herr)
		}
		if rep.Status != servers.DoctorPartial || rep.Error == nil || rep.Error.Code != shared.CodeInternal ||
			!strings.Contains(rep.Error.Message, c.want) || rep.Error.Details != nil {
			t.Errorf("%v failing: status %s, error %+v; want partial with INTERNAL_ERROR %q", c.fail, rep.Status, rep.Error, c.want)
		}
		l.DropSessions("srv_5")
	}
	rep, herr := Doctor(t.Context(), open(l, false), nil)
	if herr != nil || rep.Status != servers.DoctorReady || rep.Error != nil {
		t.Errorf("ready report: %s, error %+v, %v", rep.Status, rep.Error, herr)
	}
}

// The code of a failed listing is the service's: TIMEOUT, then
// SERVER_UNREACHABLE by the message's words, else INTERNAL_ERROR; the
// double's own timeouts and lost connections keep theirs.
func TestDoctorErrorCode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		code shared.Code
		msg  string
		want shared.Code
	}{
		{shared.CodeTimeout, "The server did not answer in time", shared.CodeTimeout},
		{shared.CodeServerUnreachable, "Could not reach the server", shared.CodeServerUnreachable},
		{shared.CodeInternal, "Request timed out", shared.CodeTimeout},
		{shared.CodeInternal, "upstream Timeout", shared.CodeTimeout},
		{shared.CodeInternal, "Connection reset by the backend", shared.CodeServerUnreachable},
		{shared.CodeInternal, "fetch failed: ECONNRESET", shared.CodeServerUnreachable},
		{shared.CodeInternal, "boom", shared.CodeInternal},
		{shared.CodeOAuthRequired, "The server requires authorization", shared.CodeInternal},
	} {
		if got := doctorErrorCode(edge.NewError(c.code, c.msg, nil)); got != c.want {
			t.Errorf("doctorErrorCode(%s %q) = %s, want %s", c.code, c.msg, got, c.want)
		}
	}
}

// The doctor's tools are as the server sent them less _meta, which the
// service strips from each.
func TestDoctorToolsWithoutMeta(t *testing.T) {
	t.Parallel()
	l := newLayer(t)
	sc := l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_6", URL: "http://inprocess.invalid/paged",
		Transport: servers.TransportHTTP, Target: mcpconn.Target{Transport: mcpconn.TransportInProcess, Server: pagedServer()}})
	rep, herr := Doctor(t.Context(), sc, nil)
	if herr != nil || len(rep.Tools) != 3 {
		t.Fatalf("Doctor: %d tools, %v", len(rep.Tools), herr)
	}
	got := keys(t, rep.Tools[0])
	if slices.Contains(got, "_meta") || !slices.Contains(got, "annotations") || !slices.Contains(got, "title") {
		t.Errorf("doctor tool a has %v; want its fields as sent less _meta", got)
	}
}

func TestOmit(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"name":"a","_meta":{"x":1},"n":9007199254740993}`: `{"name":"a","n":9007199254740993}`,
		`{"_meta":null}`:        `{}`,
		`{"name":"a"}`:          `{"name":"a"}`,
		`[{"_meta":1}]`:         `[{"_meta":1}]`,
		`{"name":"a","_meta":}`: `{"name":"a","_meta":}`,
		// Keys are written as sent, not re-encoded (no <>& escaping).
		`{"a<b>&":1,"_meta":2,"\u00e9":3}`:            `{"a<b>&":1,"\u00e9":3}`,
		"{ \"x\" : 1 ,\n \"_meta\":2 , \"y\":[1, 2]}": `{"x":1,"y":[1, 2]}`,
	} {
		if got := string(omit(json.RawMessage(in), "_meta")); got != want {
			t.Errorf("omit(%s) = %s, want %s", in, got, want)
		}
	}
}

// reportMembers is the report encoded and read back as its members.
func reportMembers(t *testing.T, rep DoctorReport) map[string]json.RawMessage {
	t.Helper()
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// Every doctor report carries the four listings as arrays, [] when none,
// unserved, failed or not connected, as the service's
// (createServerDoctorResult starts them at []).
func TestDoctorListsAreAlwaysArrays(t *testing.T) {
	t.Parallel()
	l := newLayer(t)
	failed := l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_7", URL: "http://inprocess.invalid/paged",
		Transport: servers.TransportHTTP, Target: mcpconn.Target{Transport: mcpconn.TransportInProcess,
			Server: failing(pagedServer(), "tools/list", "resources/list", "prompts/list", "resources/templates/list")}})
	dead := l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_8", Transport: servers.TransportStdio,
		Target: mcpconn.Target{Transport: mcpconn.TransportStdio, Command: "sh", Args: []string{"-c", "exit 3"}, ProtocolVersion: "2025-11-25"}})
	for name, sc := range map[string]*Call{
		"connected, tools only": open(l, false),
		"oauth_required":        openGuarded(t, l),
		"listings failed":       failed,
		"not connected":         dead,
	} {
		rep, herr := Doctor(t.Context(), sc, nil)
		if herr != nil {
			t.Fatalf("%s: %v", name, herr)
		}
		m := reportMembers(t, rep)
		for _, k := range []string{"tools", "resources", "resourceTemplates", "prompts"} {
			if v, ok := m[k]; !ok || !strings.HasPrefix(string(v), "[") {
				t.Errorf("%s report (%s): %q = %s (present %v); want an array", name, rep.Status, k, v, ok)
			}
		}
	}
}

// The service reports the _meta it strips from the tools in toolsMetadata,
// {toolName: _meta}; {} when none or not connected.
func TestDoctorToolsMetadata(t *testing.T) {
	t.Parallel()
	l := newLayer(t)
	sc := l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_9", URL: "http://inprocess.invalid/paged",
		Transport: servers.TransportHTTP, Target: mcpconn.Target{Transport: mcpconn.TransportInProcess, Server: pagedServer()}})
	for name, c := range map[string]struct {
		sc   *Call
		want string
	}{
		"paged":          {sc, `{"a":{"vendor/x":"y"}}`},
		"echo":           {open(l, false), `{}`},
		"oauth_required": {openGuarded(t, l), `{}`},
	} {
		rep, herr := Doctor(t.Context(), c.sc, nil)
		if herr != nil {
			t.Fatal(herr)
		}
		if got := string(reportMembers(t, rep)["toolsMetadata"]); got != c.want {
			t.Errorf("%s toolsMetadata = %s, want %s", name, got, c.want)
		}
	}
}

func TestSplitToolsMeta(t *testing.T) {
	t.Parallel()
	tools := []json.RawMessage{
		json.RawMessage(`{"name":"z","_meta":{"n":9007199254740993}}`),
		json.RawMessage(`{"name":"a<b>","_meta":null,"title":"T"}`),
		json.RawMessage(`{"name":"plain"}`),
		json.RawMessage(`{"name":"z","_meta":2}`),
	}
	got, meta := splitToolsMeta(tools)
	if want := `{"z":2,"a<b>":null}`; string(meta) != want {
		t.Errorf("toolsMetadata = %s, want %s", meta, want)
	}
	for i, want := range []string{`{"name":"z"}`, `{"name":"a<b>","title":"T"}`, `{"name":"plain"}`, `{"name":"z"}`} {
		if string(got[i]) != want {
			t.Errorf("tool %d = %s, want %s", i, got[i], want)
		}
	}
}

// initInfo.clientCapabilities is what the double's client declared on the
// wire (go-sdk's V2 form, {}), not the v1 struct's "roots":{}.
func TestInitInfoClientCapabilitiesAsDeclared(t *testing.T) {
	t.Parallel()
	l := newLayer(t)
	v, herr := Validate(t.Context(), open(l, false))
	if herr != nil {
		t.Fatal(herr)
	}
	var ii struct {
		ClientCapabilities json.RawMessage `json:"clientCapabilities"`
	}
	if err := json.Unmarshal(v.InitInfo, &ii); err != nil {
		t.Fatal(err)
	}
	if string(ii.ClientCapabilities) != `{}` {
		t.Errorf("initInfo.clientCapabilities = %s; the double's client declared none ({})", ii.ClientCapabilities)
	}
}

// The doctor's target is the service's hosted one whatever the transport:
// kind http and scope hosted; a stdio server, which has no URL, has no url
// in it. The label is the body's serverName, else the server id.
func TestDoctorTarget(t *testing.T) {
	t.Parallel()
	l := newLayer(t)
	stdio := l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_9", Transport: servers.TransportStdio,
		Target: mcpconn.Target{Transport: mcpconn.TransportStdio, Command: "/nonexistent/mcp-server"}})
	rep, herr := Doctor(t.Context(), stdio, &ServerBody{ServerFields{ServerName: json.RawMessage(`"Local"`)}})
	want := servers.DoctorTarget{Kind: "http", Scope: "hosted", ProjectID: "prj_1", ServerID: "srv_9", Label: "Local"}
	if herr != nil || rep.Target == nil || *rep.Target != want {
		t.Errorf("stdio target = %+v (%v), want %+v", rep.Target, herr, want)
	}
	if m := reportMembers(t, rep); !strings.Contains(string(m["target"]), `"kind":"http"`) || strings.Contains(string(m["target"]), "url") {
		t.Errorf("stdio report's target = %s", m["target"])
	}
	rep, _ = Doctor(t.Context(), open(l, false), nil)
	if rep.Target == nil || rep.Target.Label != "srv_1" || rep.Target.URL != "http://inprocess.invalid/echo" {
		t.Errorf("http target = %+v, want labelled srv_1 with the saved URL", rep.Target)
	}
}
