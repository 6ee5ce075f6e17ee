package servers_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/projectops/projectops-go/option"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// deadURL is an HTTP MCP endpoint nothing listens on.
func deadURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr + "/mcp"
}

func TestMissingCapabilityIs422(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p, id := f.WS.ProjectID, addMCP(t, f, "tools-only", toolsOnlyServer())
	ctx := t.Context()
	_, err := f.C.Servers.ListPrompts(ctx, p, id, nil)
	e := wantError(t, err, projectops.CodeFeatureNotSupported, true)
	if e.Details["capability"] != "prompts" {
		t.Errorf("details = %v", e.Details)
	}
	_, err = f.C.Servers.GetPrompt(ctx, p, id, servers.GetPromptParams{PromptName: "x"})
	wantError(t, err, projectops.CodeFeatureNotSupported, true)
	_, err = collect(f.C.Servers.AllResources(ctx, p, id, nil))
	wantError(t, err, projectops.CodeFeatureNotSupported, true)
	_, err = f.C.Servers.ReadResource(ctx, p, id, servers.ReadResourceParams{URI: "file:///x"})
	wantError(t, err, projectops.CodeFeatureNotSupported, true)
	// The session stays usable.
	if _, err := f.C.Servers.CallTool(ctx, p, id, servers.CallToolParams{ToolName: "ping"}); err != nil {
		t.Fatal(err)
	}
}

func TestUnreachableServer(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.WS.ProjectID
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "down", URL: deadURL(t)}))
	ctx := t.Context()
	_, err := f.C.Servers.Validate(ctx, p, id)
	wantError(t, err, projectops.CodeServerUnreachable, true)
	_, err = f.C.Servers.ListTools(ctx, p, id, nil)
	wantError(t, err, projectops.CodeServerUnreachable, true)
	// A tool call is a non-idempotent write: one attempt, no retry on 502.
	f.Srv.ResetRequests()
	_, err = f.C.Servers.CallTool(ctx, p, id, servers.CallToolParams{ToolName: "x"})
	wantError(t, err, projectops.CodeServerUnreachable, true)
	if n := len(f.Srv.Requests()); n != 1 {
		t.Errorf("tools/call sent %d times, want 1", n)
	}
	// Doctor reports the failure instead of failing.
	rep, err := f.C.Servers.Doctor(ctx, p, id)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != servers.DoctorError || rep.Connection.Status != servers.ConnectionError ||
		rep.Error == nil || rep.Error.Code != projectops.CodeServerUnreachable ||
		rep.Checks.Tools.Status != servers.CheckSkipped {
		t.Errorf("report = %+v, error %+v", rep, rep.Error)
	}
	if f.Srv.MCPSessions() != 0 {
		t.Error("a failed dial stayed in the pool")
	}

	// A stdio command that does not exist is unreachable too, and its
	// command line appears in no error.
	cmd := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "nocmd",
		Command: "/nonexistent/secret-binary-4411", Args: []string{"--token=argsecret-8812"}}))
	_, err = f.C.Servers.Validate(ctx, p, cmd)
	e := wantError(t, err, projectops.CodeServerUnreachable, true)
	for _, s := range []string{"secret-binary-4411", "argsecret-8812"} {
		if strings.Contains(e.Error(), s) || strings.Contains(e.Message, s) {
			t.Errorf("error leaks %q: %v", s, e)
		}
	}
}

func TestSilentServerIs504(t *testing.T) {
	t.Parallel()
	f := setup(t, projectopstest.WithMCPTimeout(150*time.Millisecond))
	p := f.WS.ProjectID
	slow := addMCP(t, f, "slow", slowServer())
	start := time.Now()
	_, err := f.C.Servers.CallTool(t.Context(), p, slow, servers.CallToolParams{ToolName: "hang"})
	wantError(t, err, projectops.CodeTimeout, true)
	if time.Since(start) > 5*time.Second {
		t.Errorf("timeout took %v", time.Since(start))
	}
	mute := addMCP(t, f, "mute", muteServer())
	// Reads are retried on 504 by the SDK; every attempt times out.
	c := f.Client(t, option.WithMaxRetries(0))
	_, err = c.Servers.Validate(t.Context(), p, mute)
	wantError(t, err, projectops.CodeTimeout, true)
	_, err = c.Servers.ListTools(t.Context(), p, mute, nil)
	wantError(t, err, projectops.CodeTimeout, true)
}

func TestMCPErrorsMapped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p, id := f.WS.ProjectID, addMCP(t, f, "full", fullServer())
	ctx := t.Context()
	_, err := f.C.Servers.GetPrompt(ctx, p, id, servers.GetPromptParams{PromptName: "nope"})
	wantError(t, err, projectops.CodeValidation, true)
	_, err = f.C.Servers.ReadResource(ctx, p, id, servers.ReadResourceParams{URI: "file:///nope"})
	wantError(t, err, projectops.CodeNotFound, true)
	_, err = f.C.Servers.ListTools(ctx, p, id, &servers.ListParams{Cursor: "not-a-cursor"})
	wantError(t, err, projectops.CodeValidation, true)
}

// oldStyleServer answers as servers before SEP-2164 do: an unknown
// resource is JSON-RPC -32002, and prompts/list, though prompts are
// advertised, is "method not found".
func oldStyleServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "old-style", Version: "0.1.0"}, nil)
	s.AddResource(&mcp.Resource{URI: "file:///gone", Name: "gone"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return nil, &jsonrpc.Error{Code: -32002, Message: "Resource not found"}
		})
	s.AddPrompt(&mcp.Prompt{Name: "p"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	})
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "prompts/list" {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found"}
			}
			return next(ctx, method, req)
		}
	})
	return s
}

// MCP's "resource not found" (-32002) is 404, as invalid params is; a
// capability advertised but not served exports as an empty list (export
// never answers 422).
func TestOldStyleServerErrors(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p, id := f.WS.ProjectID, addMCP(t, f, "old", oldStyleServer())
	_, err := f.C.Servers.ReadResource(t.Context(), p, id, servers.ReadResourceParams{URI: "file:///gone"})
	wantError(t, err, projectops.CodeNotFound, true)
	snap, err := f.C.Servers.Export(t.Context(), p, id)
	if err != nil || snap.Prompts == nil || len(snap.Prompts) != 0 || len(snap.Resources) != 1 {
		t.Fatalf("Export = %+v, %v", snap, err)
	}
}

// A streamable HTTP server that restarted no longer knows the double's
// pooled session and answers its id with 404: the tool call never ran, so
// it goes again on a new session (MCP: a client MUST start a new session
// then) instead of failing 502 once after every restart. It runs once.
func TestToolCallAfterServerRestart(t *testing.T) {
	t.Parallel()
	var runs atomic.Int32
	var started []*mcp.Server
	t.Cleanup(func() { // what a restart ends: the old process's sessions
		for _, s := range started {
			for ss := range s.Sessions() {
				_ = ss.Close()
			}
		}
	})
	server := func() http.Handler {
		s := mcp.NewServer(&mcp.Implementation{Name: "restarts", Version: "0.1.0"}, nil)
		started = append(started, s)
		mcp.AddTool(s, &mcp.Tool{Name: "count"}, func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
			runs.Add(1)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
		})
		return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	}
	var current atomic.Pointer[http.Handler]
	h := server()
	current.Store(&h)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*current.Load()).ServeHTTP(w, r) }))
	t.Cleanup(hs.Close)
	f := setup(t)
	p := f.WS.ProjectID
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "restarts", URL: hs.URL}))
	call := func() {
		t.Helper()
		if _, err := f.C.Servers.CallTool(t.Context(), p, id, servers.CallToolParams{ToolName: "count"}); err != nil {
			t.Fatal(err)
		}
	}
	call()
	restarted := server()
	current.Store(&restarted)
	call()
	if n := runs.Load(); n != 2 {
		t.Errorf("the tool ran %d times for two calls", n)
	}
}
