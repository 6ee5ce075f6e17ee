package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
)

// execResult adds what go-sdk's mcp.Tool does not model to every tool of
// a tools/list result, as a server on MCP 2025-11-25 does (the execution
// @modelcontextprotocol/server-everything puts on each tool), and a
// number past float64's precision; its inputSchema gets the like, as
// export keeps a tool's schemas but not its execution.
type execResult struct{ mcp.Result }

func (v *execResult) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(v.Result)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	if items, ok := m["tools"].([]any); ok {
		for _, it := range items {
			tool := it.(map[string]any)
			tool["execution"] = map[string]any{"taskSupport": "required"}
			tool["x-limit"] = json.Number("9007199254740993")
			if schema, ok := tool["inputSchema"].(map[string]any); ok {
				schema["x-execution"] = map[string]any{"taskSupport": "required"}
				schema["x-limit"] = json.Number("9007199254740993")
			}
		}
	}
	return json.Marshal(m)
}

// execAPI starts a double with one saved server, "tasks", whose tools
// carry execution, and points the SDK's environment at it.
func execAPI(t *testing.T) (projectID, serverID string) {
	t.Helper()
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	ws := srv.Default()
	s := mcp.NewServer(&mcp.Implementation{Name: "tasks", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "research"}, func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{StructuredContent: json.RawMessage(`{"id":9007199254740993}`),
			Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if err != nil || method != "tools/list" {
				return res, err
			}
			return &execResult{res}, nil
		}
	})
	id, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "tasks", MCPServer: s, ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	base, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PROJECTOPS_BASE_URL", base)
	t.Setenv("PROJECTOPS_API_KEY", ws.APIKey)
	return ws.ProjectID, id
}

// export writes the snapshot as served: what the service keeps of the
// tool (its inputSchema, an unmodelled member and a number as written
// included) is in the file, which is still indented, and diff sees a
// change to them.
func TestExportKeepsToolFieldsAsServed(t *testing.T) {
	p, id := execAPI(t)
	code, out, stderr := runCLI(t, "export", "--project", p, "--server", id)
	if code != 0 {
		t.Fatalf("export: %d %s", code, stderr)
	}
	for _, want := range []string{`"taskSupport": "required"`, `"x-limit": 9007199254740993`, "\n  \"tools\": [\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("exported snapshot lacks %q:\n%s", want, out)
		}
	}
	dir := t.TempDir()
	oldPath, newPath := filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json")
	if code, _, stderr := runCLI(t, "export", "--project", p, "--server", id, "-o", oldPath); code != 0 {
		t.Fatalf("export -o: %d %s", code, stderr)
	}
	if code, out, errs := runCLI(t, "diff", oldPath, oldPath); code != 0 || out != "" {
		t.Errorf("diff of a snapshot with itself: %d %q %q", code, out, errs)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"taskSupport": "required"`, `"taskSupport": "forbidden"`, `x-execution.taskSupport: "required" → "forbidden"`},
		{`9007199254740993`, `9007199254740992`, `x-limit: 9007199254740993 → 9007199254740992`},
	} {
		if err := os.WriteFile(newPath, []byte(strings.Replace(out, c.from, c.to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		code, got, errs := runCLI(t, "diff", oldPath, newPath)
		if code != 1 || !strings.Contains(got, c.want) {
			t.Errorf("diff after %s → %s: exit %d, stdout %q, stderr %q; want 1 and %q", c.from, c.to, code, got, errs, c.want)
		}
	}
}

// tools list prints the tools as served, execution included.
func TestToolsListAsServed(t *testing.T) {
	p, id := execAPI(t)
	code, out, stderr := runCLI(t, "tools", "list", "--project", p, "--server", id)
	if code != 0 {
		t.Fatalf("tools list: %d %s", code, stderr)
	}
	var tools []struct {
		Name      string `json:"name"`
		Execution struct {
			TaskSupport string `json:"taskSupport"`
		} `json:"execution"`
	}
	if err := json.Unmarshal([]byte(out), &tools); err != nil || len(tools) != 1 || tools[0].Name != "research" ||
		tools[0].Execution.TaskSupport != "required" || !strings.Contains(out, `"x-limit": 9007199254740993`) {
		t.Errorf("tools list = %+v, %v:\n%s", tools, err, out)
	}
}

// diff reads snapshot files keeping what go-sdk's types do not model and
// numbers at full precision: a change to either is a difference (exit 1),
// while keys in another order and 1.0 for 1 in the same unmodelled field
// are not. Each equal pair has a changed twin whose diff is exactly the
// change, so the pair is known to be compared as served.
func TestDiffSeesServedFields(t *testing.T) {
	dir := t.TempDir()
	snap := func(name, tool string) string {
		p := filepath.Join(dir, name)
		js := `{"serverId":"srv_1","exportedAt":"2026-01-01T00:00:00Z","resources":[],"prompts":[],"tools":[` + tool + `]}`
		if err := os.WriteFile(p, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// execution and x-limits are unmodelled: only served comparison sees
	// them.
	exec := func(support, limits string) string {
		return `{"name":"research","inputSchema":{"type":"object"},"execution":{"taskSupport":"` + support + `","limits":` + limits + `}}`
	}
	maximum := func(n, limits string) string {
		return `{"name":"research","inputSchema":{"type":"object","properties":{"id":{"type":"integer","maximum":` + n + `}}},"x-limits":` + limits + `}`
	}
	const (
		limits     = `{"tasks":1,"depth":2}`
		reordered  = `{"depth":2.0,"tasks":1.0}`
		execChange = "~ tool \"research\"\n    execution.taskSupport: \"required\" → \"forbidden\"\n"
		maxChange  = "~ tool \"research\"\n    inputSchema.properties.id.maximum: 9007199254740993 → 9007199254740992\n"
	)
	for _, c := range []struct {
		name     string
		old, new string
		code     int
		out      string
	}{
		{"execution changed", exec("required", limits), exec("forbidden", reordered), 1, execChange},
		{"execution same", exec("required", limits), exec("required", reordered), 0, ""},
		{"execution limits changed", exec("required", limits), exec("required", `{"depth":2,"tasks":3}`), 1,
			"~ tool \"research\"\n    execution.limits.tasks: 1 → 3\n"},
		{"maximum past 2^53", maximum("9007199254740993", limits), maximum("9007199254740992", reordered), 1, maxChange},
		{"maximum same value", maximum("9007199254740993", limits), maximum("9007199254740993.0", reordered), 0, ""},
		{"x-limits changed", maximum("9007199254740993", limits), maximum("9007199254740993", `{"depth":2}`), 1,
			"~ tool \"research\"\n    x-limits.tasks: 1 → (absent)\n"},
	} {
		code, out, errs := runCLI(t, "diff", snap("old.json", c.old), snap("new.json", c.new))
		if code != c.code || out != c.out {
			t.Errorf("%s: diff exit = %d, stdout %q (stderr %q); want %d, %q", c.name, code, out, errs, c.code, c.out)
		}
	}
}

// tools call prints the result as served: a number in structuredContent
// past 2^53 is not rounded through float64.
func TestToolsCallAsServed(t *testing.T) {
	p, id := execAPI(t)
	code, out, stderr := runCLI(t, "tools", "call", "--project", p, "--server", id, "research")
	if code != 0 {
		t.Fatalf("tools call: %d %s", code, stderr)
	}
	if !strings.Contains(out, `"id": 9007199254740993`) || !strings.Contains(out, `"text": "ok"`) {
		t.Errorf("tools call output:\n%s", out)
	}
}
