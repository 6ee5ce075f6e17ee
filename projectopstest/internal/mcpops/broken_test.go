package mcpops

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// garbageEnv turns the test binary into a stdio MCP server whose "garbage"
// tool writes what many servers write for a line they cannot parse (an
// error for a null id, which no JSON-RPC client can decode) before its
// answer, and whose "die" tool exits mid-call.
const garbageEnv = "MCPOPS_TEST_GARBAGE_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(garbageEnv) == "1" {
		s := echoServer()
		mcp.AddTool(s, &mcp.Tool{Name: "garbage"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			_, _ = os.Stdout.WriteString(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` + "\n")
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "after garbage"}}}, nil, nil
		})
		mcp.AddTool(s, &mcp.Tool{Name: "die"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			os.Exit(3)
			return nil, nil, nil
		})
		_ = s.Run(context.Background(), &mcp.StdioTransport{})
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// garbageCall is a stdio call on the garbage server: this test binary.
func garbageCall(t *testing.T) Call {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_1", Transport: servers.TransportStdio,
		Target: mcpconn.Target{Transport: mcpconn.TransportStdio, Command: exe, Env: []string{garbageEnv + "=1"}, ProtocolVersion: "2025-11-25"}}
}

// A tagged line go-sdk cannot decode as a message is skipped, as the
// service's stdio client skips it: the call it interrupts still gets its
// answer, and the session goes on.
func TestUndecodableLineIsSkipped(t *testing.T) {
	t.Parallel()
	sc := newLayer(t).Open(garbageCall(t))
	raw, herr := CallTool(t.Context(), sc, &CallToolBody{CallToolParams: servers.CallToolParams{ToolName: "garbage"}})
	if herr != nil || !strings.Contains(string(raw), `"after garbage"`) {
		t.Fatalf("garbage call = %s, %v; want its answer after the skipped line", raw, herr)
	}
	raw, herr = CallTool(t.Context(), sc, &CallToolBody{CallToolParams: servers.CallToolParams{ToolName: "echo", Parameters: map[string]any{"text": "again"}}})
	if herr != nil || !strings.Contains(string(raw), `"again"`) {
		t.Fatalf("echo after the garbage = %s, %v; want it answered", raw, herr)
	}
}

// A stdio session that ends mid-call (its server exits) answers 502
// without a code the server never sent, and the next call runs on a new
// session (the dead one was pooled again and failed it too).
func TestSessionEndedMidCallIs502(t *testing.T) {
	t.Parallel()
	sc := newLayer(t).Open(garbageCall(t))
	if _, herr := CallTool(t.Context(), sc, &CallToolBody{CallToolParams: servers.CallToolParams{ToolName: "echo", Parameters: map[string]any{"text": "hi"}}}); herr != nil {
		t.Fatalf("warm-up echo: %v", herr)
	}
	_, herr := CallTool(t.Context(), sc, &CallToolBody{CallToolParams: servers.CallToolParams{ToolName: "die"}})
	if herr == nil || herr.Body.Code != shared.CodeServerUnreachable || herr.Body.Details["mcpCode"] != nil {
		t.Fatalf("die call = %v, want 502 SERVER_UNREACHABLE without an mcpCode", herr)
	}
	raw, herr := CallTool(t.Context(), sc, &CallToolBody{CallToolParams: servers.CallToolParams{ToolName: "echo", Parameters: map[string]any{"text": "again"}}})
	if herr != nil || !strings.Contains(string(raw), `"again"`) {
		t.Fatalf("echo after the session ended = %s, %v; want it answered on a new session", raw, herr)
	}
}

// A caller that leaves during resources/read gets the cancel's answer
// (504, as a cancelled tools/call) and the read is not run again on a new
// session for nobody: the server sees one session per operation, three.
func TestCancelledReadIsNotRetried(t *testing.T) {
	t.Parallel()
	l := newLayer(t)
	s := echoServer()
	s.AddResource(&mcp.Resource{URI: "test://slow", Name: "slow"}, func(ctx context.Context, _ *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	var mu sync.Mutex
	sessions := map[any]bool{}
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			mu.Lock()
			sessions[req.GetSession()] = true
			mu.Unlock()
			return next(ctx, method, req)
		}
	})
	sc := open(l, false)
	sc.Target.Server = s
	if _, herr := ListTools(t.Context(), sc, &ListBody{}); herr != nil {
		t.Fatal(herr)
	}
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, herr := ReadResource(ctx, sc, &servers.ReadResourceParams{URI: "test://slow"})
	if _, err := ListTools(t.Context(), sc, &ListBody{}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	n := len(sessions)
	mu.Unlock()
	if n != 3 || herr == nil || herr.Body.Code != shared.CodeTimeout {
		t.Fatalf("cancelled read answered %v and the server saw %d sessions; want TIMEOUT and 3 sessions", herr, n)
	}
}
