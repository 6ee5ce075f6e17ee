package projectopstest_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
)

// The service refuses task-augmented tool execution on /api/v1: its
// tools/call body schema (toolsExecuteSchema) declares `taskOptions`
// ({ttl?: positive int}, strict) and `allowTaskResult` (boolean), not
// both truthy, and the route refuses with FEATURE_NOT_SUPPORTED (status
// 400 there) before calling the tool when either is truthy
// (mcpjam-inspector/server/routes/v1/tools.ts). The double refuses the same opt-ins without running the tool, with the
// status the spec's error table gives FEATURE_NOT_SUPPORTED (422).
func TestToolsCallTaskOptionsRefused(t *testing.T) {
	t.Parallel()
	var ran atomic.Int32
	s := mcp.NewServer(&mcp.Implementation{Name: "side-effect", Version: "1.0.0"}, nil)
	s.AddTool(&mcp.Tool{Name: "launch", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ran.Add(1)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "launched"}}}, nil
		})
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "side-effect", MCPServer: s}))
	tg := inproc(srv)
	for _, c := range []struct {
		extra, server string
		status        int
		code          string
		runs          bool
	}{
		{extra: `"taskOptions":{"ttl":60000}`, status: 422, code: "FEATURE_NOT_SUPPORTED"},
		{extra: `"taskOptions":{}`, status: 422, code: "FEATURE_NOT_SUPPORTED"}, // {} is truthy
		{extra: `"allowTaskResult":true`, status: 422, code: "FEATURE_NOT_SUPPORTED"},
		{extra: `"allowTaskResult":false`, status: 200, runs: true},
		{extra: `"taskOptions":null`, status: 400, code: "VALIDATION_ERROR"},
		{extra: `"taskOptions":{"ttl":-1}`, status: 400, code: "VALIDATION_ERROR"},
		{extra: `"taskOptions":{"poll":5}`, status: 400, code: "VALIDATION_ERROR"},
		{extra: `"allowTaskResult":"yes"`, status: 400, code: "VALIDATION_ERROR"},
		{extra: `"taskOptions":{},"allowTaskResult":true`, status: 400, code: "VALIDATION_ERROR"},
		// the body is checked before the server is looked up; the refusal
		// comes after (the route's operation runs on a found server)
		{extra: `"taskOptions":null`, server: "srv_missing", status: 400, code: "VALIDATION_ERROR"},
		{extra: `"taskOptions":{}`, server: "srv_missing", status: 404, code: "NOT_FOUND"},
	} {
		server := id
		if c.server != "" {
			server = c.server
		}
		before := ran.Load()
		r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+server+"/tools/call", ws.APIKey,
			`{"toolName":"launch","parameters":{},`+c.extra+`}`)
		var b struct{ Code string }
		_ = json.Unmarshal(r.body, &b)
		if r.status != c.status || b.Code != c.code {
			t.Errorf("tools/call with %s on %s: %d %s, want %d %s", c.extra, server, r.status, r.body, c.status, c.code)
		}
		if got := ran.Load() != before; got != c.runs {
			t.Errorf("tools/call with %s: the tool ran = %v, want %v", c.extra, got, c.runs)
		}
	}
}
