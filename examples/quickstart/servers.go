package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/servers"
)

// demoServerID is the demo workspace's in-process MCP server.
const demoServerID = "srv_demo"

// serverTour operates the demo MCP server: validate, doctor, tools, a tool
// call, a prompt, a resource and an export snapshot.
func serverTour(ctx context.Context, w io.Writer, client *projectops.Client, projectID string) error {
	v, err := client.Servers.Validate(ctx, projectID, demoServerID)
	if err != nil {
		return fmt.Errorf("validate: %w", err)
	}
	fmt.Fprintf(w, "validated %s: %s\n", demoServerID, describeInit(v.InitInfo))

	rep, err := client.Servers.Doctor(ctx, projectID, demoServerID)
	if err != nil {
		return fmt.Errorf("doctor: %w", err)
	}
	fmt.Fprintf(w, "doctor: %s (%s; %s; %s)\n", rep.Status, checkDetail(rep.Checks.Tools), checkDetail(rep.Checks.Prompts),
		checkDetail(rep.Checks.Resources))

	var names []string
	for t, err := range client.Servers.AllTools(ctx, projectID, demoServerID, nil) {
		if err != nil {
			return fmt.Errorf("tools: %w", err)
		}
		names = append(names, t.Name)
	}
	fmt.Fprintf(w, "tools: %s\n", strings.Join(names, ", "))

	res, err := client.Servers.CallTool(ctx, projectID, demoServerID, servers.CallToolParams{
		ToolName: "echo", Parameters: map[string]any{"message": "hello from the quickstart"}})
	if err != nil {
		return fmt.Errorf("call echo: %w", err)
	}
	fmt.Fprintf(w, "echo: %s\n", firstText(res.Content))
	// A tool-level failure is a result with IsError, not a Go error.
	res, err = client.Servers.CallTool(ctx, projectID, demoServerID, servers.CallToolParams{
		ToolName: "divide", Parameters: map[string]any{"dividend": 1, "divisor": 0}})
	if err != nil {
		return fmt.Errorf("call divide: %w", err)
	}
	fmt.Fprintf(w, "divide by zero: isError=%v %q\n", res.IsError, firstText(res.Content))

	gp, err := client.Servers.GetPrompt(ctx, projectID, demoServerID, servers.GetPromptParams{
		PromptName: "greet", Arguments: map[string]any{"name": "Ada", "style": "formal"}})
	if err != nil {
		return fmt.Errorf("get prompt: %w", err)
	}
	if len(gp.Messages) == 0 {
		return fmt.Errorf("get prompt: no messages")
	}
	fmt.Fprintf(w, "prompt greet: %s\n", firstText([]mcp.Content{gp.Messages[0].Content}))

	rr, err := client.Servers.ReadResource(ctx, projectID, demoServerID, servers.ReadResourceParams{URI: "demo://readme"})
	if err != nil {
		return fmt.Errorf("read resource: %w", err)
	}
	if len(rr.Contents) == 0 {
		return fmt.Errorf("read resource: no contents")
	}
	title, _, _ := strings.Cut(rr.Contents[0].Text, "\n")
	fmt.Fprintf(w, "resource demo://readme: %s\n", title)

	snap, err := client.Servers.Export(ctx, projectID, demoServerID)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	again, err := client.Servers.Export(ctx, projectID, demoServerID)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	fmt.Fprintf(w, "export: %d tools, %d prompts, %d resources; unchanged on re-export: %v\n",
		len(snap.Tools), len(snap.Prompts), len(snap.Resources), servers.Diff(snap, again).Equal())
	return nil
}

// describeInit names the server and protocol of an initialization info,
// which the service may not have (nil) or may lack the server's info.
func describeInit(ii *servers.InitInfo) string {
	if ii == nil {
		return "no initialization info"
	}
	server := "unnamed server"
	if sv := ii.ServerVersion; sv != nil {
		server = sv.Name + " " + sv.Version
	}
	return fmt.Sprintf("%s, protocol %s", server, ii.ProtocolVersion)
}

func firstText(c []mcp.Content) string {
	for _, b := range c {
		if t, ok := b.(*mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

// checkDetail is a doctor check's detail; a report may leave a check out.
func checkDetail(c *servers.DoctorCheck) string {
	if c == nil {
		return "not reported"
	}
	return c.Detail
}
