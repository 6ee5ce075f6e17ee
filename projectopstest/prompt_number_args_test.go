package projectopstest_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
)

// prompts/get accepts number values in `arguments` and hands them to the MCP
// server as strings. The service converts them with JavaScript's String(v)
// (sdk/src/operations.ts getPrompt: `String(value)`), so 1e21 reaches the
// server as "1e+21", 1e-7 as "1e-7" and -0 as "0": a prompt that renders
// its argument renders the text the service's would.
func TestPromptNumberArgumentsStringifiedLikeService(t *testing.T) {
	t.Parallel()
	s := mcp.NewServer(&mcp.Implementation{Name: "argecho", Version: "1.0.0"}, nil)
	s.AddPrompt(&mcp.Prompt{Name: "say", Arguments: []*mcp.PromptArgument{{Name: "n", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user",
				Content: &mcp.TextContent{Text: req.Params.Arguments["n"]}}}}, nil
		})
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "argecho", MCPServer: s}))
	tg := inproc(srv)
	for raw, want := range map[string]string{
		`1e21`:             "1e+21", // String(1e21)
		`1e-7`:             "1e-7",  // String(1e-7)
		`-0`:               "0",     // String(-0)
		`2.50`:             "2.5",
		`1e20`:             "100000000000000000000",
		`1e-6`:             "0.000001",
		`-1e-7`:            "-1e-7",
		`0.1`:              "0.1",
		`123456789012`:     "123456789012",
		`9007199254740993`: "9007199254740992", // 2^53+1 is read as the nearest double, as in JavaScript
		`true`:             "true",
		`"1e21"`:           "1e21", // strings pass unchanged
	} {
		r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/prompts/get", ws.APIKey,
			`{"promptName":"say","arguments":{"n":`+raw+`}}`)
		var got struct {
			Messages []struct {
				Content struct{ Text string }
			}
		}
		r.decode(t, &got)
		if len(got.Messages) != 1 || got.Messages[0].Content.Text != want {
			b, _ := json.Marshal(got)
			t.Errorf("arguments.n = %s reached the server as %s, want %q (JavaScript String(value), as the service converts it)", raw, b, want)
		}
	}
}
