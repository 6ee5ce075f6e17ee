package servers_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/servers"
)

// A server that connects and answers a JSON-RPC error was reachable: the
// service's answer is its catch-all 500 INTERNAL_ERROR with the server's
// message, not 502 SERVER_UNREACHABLE ("could not connect").
func TestServerAnsweredErrorIs500(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var prompts, tools atomic.Int32
	s := mcp.NewServer(&mcp.Implementation{Name: "failing", Version: "1"}, nil)
	s.AddPrompt(&mcp.Prompt{Name: "bad"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		prompts.Add(1)
		return nil, errors.New("prompt broke")
	})
	s.AddTool(&mcp.Tool{Name: "boom", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			tools.Add(1)
			return nil, errors.New("kaboom")
		})
	p, id := f.WS.ProjectID, addMCP(t, f, "failing", s)

	_, err := f.C.Servers.GetPrompt(t.Context(), p, id, servers.GetPromptParams{PromptName: "bad"}, option.WithMaxRetries(0))
	e := wantError(t, err, projectops.CodeInternal, true)
	if !strings.Contains(e.Message, "prompt broke") || e.Details["mcpCode"] == nil {
		t.Errorf("prompts/get error = %q, details %v; want the server's message and its mcpCode", e.Message, e.Details)
	}
	if n := prompts.Load(); n != 1 {
		t.Errorf("prompt handler ran %d times with retries off", n)
	}

	_, err = f.C.Servers.CallTool(t.Context(), p, id, servers.CallToolParams{ToolName: "boom"})
	e = wantError(t, err, projectops.CodeInternal, true)
	if !strings.Contains(e.Message, "kaboom") {
		t.Errorf("tools/call error = %q; want the server's message", e.Message)
	}
	if n := tools.Load(); n != 1 {
		t.Errorf("a tool call ran %d times; it is never re-sent", n)
	}
}
