package projectopstest

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoIn struct {
	Message string `json:"message" jsonschema:"the text to echo back"`
}

type addIn struct {
	A float64 `json:"a" jsonschema:"first addend"`
	B float64 `json:"b" jsonschema:"second addend"`
}

type addOut struct {
	Sum float64 `json:"sum"`
}

type divideIn struct {
	Dividend float64 `json:"dividend"`
	Divisor  float64 `json:"divisor" jsonschema:"must not be zero"`
}

// DemoMCPServer returns the MCP server behind the demo workspace's
// srv_demo, served in process by the double:
//
//   - tools echo {message} → "Echo: <message>", add {a, b} → structured
//     {sum}, divide {dividend, divisor} → a tool error (isError) when the
//     divisor is zero;
//   - prompts greet {name (required), style} and review_code {code
//     (required), language};
//   - text resources demo://readme (markdown) and demo://config.json.
func DemoMCPServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "projectops-demo", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo a message back"},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Echo: " + in.Message}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Add two numbers"},
		func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
			return nil, addOut{Sum: in.A + in.B}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "divide", Description: "Divide two numbers; dividing by zero is a tool error"},
		func(_ context.Context, _ *mcp.CallToolRequest, in divideIn) (*mcp.CallToolResult, any, error) {
			if in.Divisor == 0 {
				return &mcp.CallToolResult{IsError: true,
					Content: []mcp.Content{&mcp.TextContent{Text: "cannot divide by zero"}}}, nil, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(in.Dividend / in.Divisor)}}}, nil, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "greet", Description: "Greet someone", Arguments: []*mcp.PromptArgument{
		{Name: "name", Description: "who to greet", Required: true},
		{Name: "style", Description: "formal or casual"},
	}}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		greeting := "Hi"
		if req.Params.Arguments["style"] == "formal" {
			greeting = "Good day"
		}
		return &mcp.GetPromptResult{Description: "A greeting", Messages: []*mcp.PromptMessage{{Role: "user",
			Content: &mcp.TextContent{Text: greeting + ", " + req.Params.Arguments["name"] + "!"}}}}, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "review_code", Description: "Ask for a code review", Arguments: []*mcp.PromptArgument{
		{Name: "code", Description: "the code to review", Required: true},
		{Name: "language", Description: "programming language"},
	}}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		lang := req.Params.Arguments["language"]
		text := strings.TrimSpace("Please review this " + lang + " code:\n\n" + req.Params.Arguments["code"])
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}, nil
	})
	text := func(uri, mime, body string) mcp.ResourceHandler {
		return func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: body}}}, nil
		}
	}
	s.AddResource(&mcp.Resource{URI: "demo://readme", Name: "readme", Description: "About the demo server", MIMEType: "text/markdown"},
		text("demo://readme", "text/markdown", "# Demo server\n\nTools: echo, add, divide. Prompts: greet, review_code.\n"))
	s.AddResource(&mcp.Resource{URI: "demo://config.json", Name: "config", MIMEType: "application/json"},
		text("demo://config.json", "application/json", `{"greeting":"Hi","maxItems":10}`))
	return s
}
