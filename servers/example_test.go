package servers_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// exampleDemo serves the demo workspace in process; srv_demo is its
// in-process MCP server.
func exampleDemo() (*projectopstest.Server, func()) {
	srv, err := projectopstest.NewServer(projectopstest.WithSeed(projectopstest.DemoSeed()))
	if err != nil {
		log.Fatal(err)
	}
	return srv, func() { _ = srv.Close() }
}

func Example() {
	srv, done := exampleDemo()
	defer done()
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	res, err := client.Servers.CallTool(ctx, "prj_demo", "srv_demo", servers.CallToolParams{
		ToolName: "echo", Parameters: map[string]any{"message": "hi"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output: Echo: hi
}

func ExampleService_AllTools() {
	srv, done := exampleDemo()
	defer done()
	client, _ := srv.NewClient()
	for tool, err := range client.Servers.AllTools(context.Background(), "prj_demo", "srv_demo", nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(tool.Name, "-", tool.Description)
	}
	// Output:
	// add - Add two numbers
	// divide - Divide two numbers; dividing by zero is a tool error
	// echo - Echo a message back
}

func ExampleService_CallTool_isError() {
	srv, done := exampleDemo()
	defer done()
	client, _ := srv.NewClient()
	res, err := client.Servers.CallTool(context.Background(), "prj_demo", "srv_demo", servers.CallToolParams{
		ToolName: "divide", Parameters: map[string]any{"dividend": 1, "divisor": 0}})
	if err != nil {
		log.Fatal(err) // transport or authorization problems only
	}
	fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)
	// Output: true cannot divide by zero
}

func ExampleService_Doctor() {
	srv, done := exampleDemo()
	defer done()
	client, _ := srv.NewClient()
	rep, err := client.Servers.Doctor(context.Background(), "prj_demo", "srv_demo")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rep.Status, "-", rep.Checks.Tools.Detail, "-", rep.Checks.Prompts.Detail)
	// Output: ready - 3 tools - 2 prompts
}

func ExampleService_GetPrompt() {
	srv, done := exampleDemo()
	defer done()
	client, _ := srv.NewClient()
	res, err := client.Servers.GetPrompt(context.Background(), "prj_demo", "srv_demo", servers.GetPromptParams{
		PromptName: "greet", Arguments: map[string]any{"name": "Ada"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Messages[0].Content.(*mcp.TextContent).Text)
	// Output: Hi, Ada!
}

func ExampleService_ReadResource() {
	srv, done := exampleDemo()
	defer done()
	client, _ := srv.NewClient()
	res, err := client.Servers.ReadResource(context.Background(), "prj_demo", "srv_demo", servers.ReadResourceParams{URI: "demo://config.json"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Contents[0].MIMEType, res.Contents[0].Text)
	// Output: application/json {"greeting":"Hi","maxItems":10}
}

func ExampleDiff() {
	srv, done := exampleDemo()
	defer done()
	client, _ := srv.NewClient()
	old, err := client.Servers.Export(context.Background(), "prj_demo", "srv_demo")
	if err != nil {
		log.Fatal(err)
	}
	// Pretend the server changed: a new tool, and echo's schema changed.
	cur := *old
	cur.Tools = append([]*mcp.Tool{{Name: "reverse", InputSchema: map[string]any{"type": "object"}}}, old.Tools...)
	echo := *cur.Tools[3]
	echo.InputSchema = map[string]any{"type": "object"}
	cur.Tools[3] = &echo
	fmt.Print(servers.Diff(old, &cur))
	// Output:
	// ~ tool "echo"
	//     inputSchema.additionalProperties: false → (absent)
	//     inputSchema.properties: {"message":{"description":"the text to echo back","type":"string"}} → (absent)
	//     inputSchema.required: ["message"] → (absent)
	// + tool "reverse"
}

// ParseSnapshot reads a stored snapshot keeping what go-sdk's types do not
// model, so Diff sees a change to it (here a tool's execution, a field of
// MCP 2025-11-25).
func ExampleParseSnapshot() {
	old, err := servers.ParseSnapshot([]byte(`{"serverId":"srv_demo","tools":[
  {"name":"research","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}}],"resources":[],"prompts":[]}`))
	if err != nil {
		log.Fatal(err)
	}
	cur, err := servers.ParseSnapshot([]byte(`{"serverId":"srv_demo","tools":[
  {"name":"research","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}],"resources":[],"prompts":[]}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(servers.Diff(old, cur))
	// Output:
	// ~ tool "research"
	//     execution.taskSupport: "optional" → "required"
}
