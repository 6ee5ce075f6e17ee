package servers_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/projectops/projectops-go/projectopstest"
)

// stdioEnv switches the test binary into fullServer over stdio, so the
// kept stdio sessions are tested against a real child process.
const stdioEnv = "SERVERS_TEST_STDIO_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(stdioEnv) == "1" {
		if err := fullServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// addStdioFull saves the test binary as a stdio server serving fullServer.
func addStdioFull(t *testing.T, f *fixture) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: f.WS.ProjectID, Name: "full-stdio",
		Command: exe, Env: map[string]projectopstest.Secret{stdioEnv: "1"}}))
}

// The in-process MCP servers the contract tests save in the double. They
// page every listing by two, so five tools, three prompts and three
// resources exercise cursors.

type lookupIn struct {
	Query string `json:"query" jsonschema:"what to look up"`
	Limit int    `json:"limit,omitempty" jsonschema:"maximum results"`
}

type sumIn struct {
	A, B int
}

type sumOut struct {
	Sum int `json:"sum"`
}

const pageSize = 2

// fullServer has tools with input schemas (one structured, one failing with
// isError), prompts with arguments, and text and blob resources.
func fullServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "full", Version: "1.2.3"}, &mcp.ServerOptions{PageSize: pageSize})
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo the query"},
		func(_ context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + in.Query}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "sum", Description: "Add"},
		func(_ context.Context, _ *mcp.CallToolRequest, in sumIn) (*mcp.CallToolResult, sumOut, error) {
			return nil, sumOut{Sum: in.A + in.B}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always reports a tool error"},
		func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "it broke"}}}, nil, nil
		})
	for i := range 2 {
		mcp.AddTool(s, &mcp.Tool{Name: fmt.Sprintf("extra_%d", i)},
			func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{}}, nil, nil
			})
	}
	for _, name := range []string{"alpha", "beta", "greet"} {
		s.AddPrompt(&mcp.Prompt{Name: name, Description: "prompt " + name, Arguments: []*mcp.PromptArgument{
			{Name: "name", Required: true}, {Name: "times"}, {Name: "loud"},
		}}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			a := req.Params.Arguments
			return &mcp.GetPromptResult{Description: name, Messages: []*mcp.PromptMessage{{Role: "user",
				Content: &mcp.TextContent{Text: fmt.Sprintf("hello %s x%s loud=%s", a["name"], a["times"], a["loud"])}}}}, nil
		})
	}
	s.AddResource(&mcp.Resource{URI: "file:///a.txt", Name: "a", MIMEType: "text/plain"}, textResource("file:///a.txt", "alpha text"))
	s.AddResource(&mcp.Resource{URI: "file:///b.bin", Name: "b", MIMEType: "application/octet-stream"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "file:///b.bin",
				MIMEType: "application/octet-stream", Blob: []byte{0, 1, 2, 254, 255}}}}, nil
		})
	s.AddResource(&mcp.Resource{URI: "file:///c.md", Name: "c", MIMEType: "text/markdown"}, textResource("file:///c.md", "# c"))
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "file:///docs/{name}", Name: "docs"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "doc"}}}, nil
		})
	return s
}

func textResource(uri, text string) mcp.ResourceHandler {
	return func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: text}}}, nil
	}
}

// toolsOnlyServer has no prompts or resources capability.
func toolsOnlyServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "tools-only", Version: "0.1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "ping"}, func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}}, nil, nil
	})
	return s
}

// slowServer's tool "hang" never answers before the caller gives up.
func slowServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "0.1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "hang"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
		<-ctx.Done()
		return nil, nil, ctx.Err()
	})
	return s
}

// mute is a server that accepts the connection but never answers
// initialize.
func muteServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "mute", Version: "0.1.0"}, nil)
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "initialize" || method == "server/discover" {
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return next(ctx, method, req)
		}
	})
	return s
}

// addMCP saves an in-process MCP server in the default project.
func addMCP(t *testing.T, f *fixture, name string, s *mcp.Server) string {
	t.Helper()
	return must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: f.WS.ProjectID, Name: name, MCPServer: s}))
}
