//go:build integration

// The integration tests talk to the reference MCP server from the npm
// registry; `.ci/run` installs it and runs them with -tags integration.

package servers_test

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// everythingVersion is pinned in internal/testdata/mcpservers/package.json.
const everythingVersion = "2026.8.31"

// everythingEntry returns the installed reference server's entry point, or
// fails the test saying how to install it (never skips: CI installs it).
func everythingEntry(t *testing.T) (node, entry string) {
	t.Helper()
	dir, err := filepath.Abs("../internal/testdata/mcpservers")
	if err != nil {
		t.Fatal(err)
	}
	entry = filepath.Join(dir, "node_modules/@modelcontextprotocol/server-everything/dist/index.js")
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("@modelcontextprotocol/server-everything@%s is not installed (%v).\n"+
			"Install it with: npm ci --prefix internal/testdata/mcpservers   (.ci/run does this)", everythingVersion, err)
	}
	node, err = exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not on PATH (%v): the integration tests need Node.js 20+", err)
	}
	return node, entry
}

// exerciseEverything runs every operation the issue names against a saved
// server-everything.
func exerciseEverything(t *testing.T, f *fixture, id string) {
	t.Helper()
	ctx, p := t.Context(), f.WS.ProjectID
	v, err := f.C.Servers.Validate(ctx, p, id)
	if err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if v.InitInfo == nil || v.InitInfo.ServerVersion == nil || !strings.Contains(v.InitInfo.ServerVersion.Name, "everything") {
		t.Errorf("initInfo = %+v", v.InitInfo)
	}
	rep, err := f.C.Servers.Doctor(ctx, p, id)
	if err != nil {
		t.Fatalf("Doctor: %v", err)
	}
	if rep.Status != servers.DoctorReady {
		t.Errorf("doctor status %s: %+v %+v", rep.Status, rep.Checks, rep.Error)
	}
	tools, err := collect(f.C.Servers.AllTools(ctx, p, id, nil))
	if err != nil || len(tools) < 5 {
		t.Fatalf("Tools: %d, %v", len(tools), err)
	}
	// The reference server's task tool declares execution (MCP
	// 2025-11-25), which go-sdk's Tool does not model: the double passes it
	// on as sent, and the SDK's caller reads it from the body.
	var meta option.Response
	var page *shared.Page[*mcp.Tool]
	var exec string
	for cursor := ""; exec == ""; cursor = page.NextCursor {
		if page, err = f.C.Servers.ListTools(ctx, p, id, &servers.ListParams{Cursor: cursor}, option.WithResponseInto(&meta)); err != nil {
			t.Fatalf("ListTools: %v", err)
		}
		var raw struct {
			Items []struct {
				Name      string
				Execution struct{ TaskSupport string }
			}
		}
		if err := json.Unmarshal(meta.Body, &raw); err != nil {
			t.Fatal(err)
		}
		for _, it := range raw.Items {
			if it.Name == "simulate-research-query" {
				exec = it.Execution.TaskSupport
			}
		}
		if page.NextCursor == "" {
			break
		}
	}
	if exec != "required" {
		t.Errorf("simulate-research-query execution.taskSupport = %q, want required (as the server sent it)", exec)
	}
	prompts, err := collect(f.C.Servers.AllPrompts(ctx, p, id, nil))
	if err != nil || len(prompts) < 2 {
		t.Fatalf("Prompts: %d, %v", len(prompts), err)
	}
	resources, err := collect(f.C.Servers.AllResources(ctx, p, id, nil))
	if err != nil || len(resources) == 0 {
		t.Fatalf("Resources: %d, %v", len(resources), err)
	}
	res, err := f.C.Servers.CallTool(ctx, p, id, servers.CallToolParams{ToolName: "echo", Parameters: map[string]any{"message": "hello"}})
	if err != nil {
		t.Fatalf("CallTool echo: %v", err)
	}
	if got := text(t, res.Content); got != "Echo: hello" || res.IsError {
		t.Errorf("echo = %q", got)
	}
	// An unknown tool is a tool error, not an API error.
	res, err = f.C.Servers.CallTool(ctx, p, id, servers.CallToolParams{ToolName: "no-such-tool"})
	if err != nil || !res.IsError {
		t.Errorf("unknown tool: %+v, %v", res, err)
	}
	gp, err := f.C.Servers.GetPrompt(ctx, p, id, servers.GetPromptParams{PromptName: "args-prompt",
		Arguments: map[string]any{"city": "Lyon", "state": "Rhône"}})
	if err != nil {
		t.Fatalf("GetPrompt: %v", err)
	}
	if len(gp.Messages) == 0 {
		t.Errorf("GetPrompt = %+v", gp)
	}
	rr, err := f.C.Servers.ReadResource(ctx, p, id, servers.ReadResourceParams{URI: resources[0].URI})
	if err != nil || len(rr.Contents) == 0 || rr.Contents[0].URI != resources[0].URI {
		t.Fatalf("ReadResource %s: %+v, %v", resources[0].URI, rr, err)
	}
	snap, err := f.C.Servers.Export(ctx, p, id)
	if err != nil || len(snap.Tools) != len(tools) || len(snap.Prompts) != len(prompts) || len(snap.Resources) != len(resources) {
		t.Fatalf("Export: %+v, %v", snap, err)
	}
}

func TestEverythingOverStdio(t *testing.T) {
	t.Parallel()
	node, entry := everythingEntry(t)
	f := setup(t)
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: f.WS.ProjectID, Name: "everything",
		Command: node, Args: []string{entry, "stdio"}, ProtocolVersion: "2025-11-25"}))
	exerciseEverything(t, f, id)
}

func TestEverythingOverStreamableHTTP(t *testing.T) {
	t.Parallel()
	url := startEverythingHTTP(t)
	f := setup(t)
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: f.WS.ProjectID, Name: "everything-http",
		URL: url, ProtocolVersion: "2025-11-25"}))
	exerciseEverything(t, f, id)
}

// startEverythingHTTP runs server-everything in its streamableHttp mode on a
// free loopback port until the test ends and returns its MCP endpoint.
func startEverythingHTTP(t *testing.T) string {
	t.Helper()
	node, entry := everythingEntry(t)
	port := freePort(t)
	cmd := exec.Command(node, entry, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	addr := "127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			_ = c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything did not listen on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return "http://" + addr + "/mcp"
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
