package projectopstest_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// harnessTool is the part of a builtin-tools item the service fixes.
type harnessTool struct{ Key, Name, CommonName, ToolUseKind string }

// wantHarnessTools are the service's keys and names per harness (reference
// date), in its order (by name).
var wantHarnessTools = map[string][]harnessTool{
	"claude-code": {
		{"Agent", "Agent", "", ""}, {"AskUserQuestion", "AskUserQuestion", "", ""},
		{"bash", "Bash", "bash", "bash"}, {"edit", "Edit", "edit", "edit"},
		{"EnterWorktree", "EnterWorktree", "", ""}, {"ExitPlanMode", "ExitPlanMode", "", ""},
		{"ExitWorktree", "ExitWorktree", "", ""}, {"glob", "Glob", "glob", "readonly"},
		{"grep", "Grep", "grep", "readonly"}, {"ListMcpResources", "ListMcpResources", "", ""},
		{"NotebookEdit", "NotebookEdit", "", ""}, {"read", "Read", "read", "readonly"},
		{"ReadMcpResource", "ReadMcpResource", "", ""}, {"Skill", "Skill", "", ""},
		{"TaskCreate", "TaskCreate", "", ""}, {"TaskGet", "TaskGet", "", ""}, {"TaskList", "TaskList", "", ""},
		{"TaskOutput", "TaskOutput", "", ""}, {"TaskStop", "TaskStop", "", ""}, {"TaskUpdate", "TaskUpdate", "", ""},
		{"TodoWrite", "TodoWrite", "", ""}, {"WebFetch", "WebFetch", "", ""},
		{"webSearch", "WebSearch", "webSearch", "readonly"}, {"write", "Write", "write", "edit"},
	},
	"codex": {{"bash", "shell", "bash", "bash"}, {"webSearch", "web_search", "webSearch", "readonly"}},
}

// TestHarnessBuiltinToolsSDK: every harness the service names is served
// with the service's keys and names, read through the SDK.
func TestHarnessBuiltinToolsSDK(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	c := must[*projectops.Client](t)(srv.NewClient())
	for harness, want := range wantHarnessTools {
		var got []harnessTool
		for tool, err := range c.Catalog.AllBuiltinTools(t.Context(), harness, nil) {
			if err != nil {
				t.Fatalf("%s: %v", harness, err)
			}
			got = append(got, harnessTool{tool.Key, tool.Name, tool.CommonName, tool.ToolUseKind})
			if tool.Description == "" || tool.InputSchema["type"] != "object" {
				t.Errorf("%s %s: description %q, inputSchema %v", harness, tool.Key, tool.Description, tool.InputSchema)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", harness, diff)
		}
	}
	_, err := c.Catalog.ListBuiltinTools(t.Context(), "pi", nil)
	if !errors.Is(err, projectops.ErrNotFound) {
		t.Errorf("unknown harness: %v, want NOT_FOUND", err)
	}
}

// TestHarnessBuiltinToolsRaw is TestHarnessBuiltinToolsSDK over raw HTTP:
// a page with items and no nextCursor; optional keys absent, not empty.
func TestHarnessBuiltinToolsRaw(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	for harness, want := range wantHarnessTools {
		var page rawPage
		tg.call(t, "GET", "/harness/"+harness+"/builtin-tools", ws.APIKey, nil).decode(t, &page)
		if page.NextCursor != nil {
			t.Errorf("%s: nextCursor %q on a single page", harness, *page.NextCursor)
		}
		var got []harnessTool
		for _, it := range page.Items {
			var h harnessTool
			h.Key, _ = it["key"].(string)
			h.Name, _ = it["name"].(string)
			h.CommonName, _ = it["commonName"].(string)
			h.ToolUseKind, _ = it["toolUseKind"].(string)
			if _, ok := it["commonName"]; ok && h.CommonName == "" {
				t.Errorf("%s %s: empty commonName sent", harness, h.Key)
			}
			got = append(got, h)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", harness, diff)
		}
	}
	tg.call(t, "GET", "/harness/pi/builtin-tools", ws.APIKey, nil).wantError(t, shared.CodeNotFound)
}
