package servers_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/servers"
)

func snapshot(t *testing.T, js string) *servers.ExportSnapshot {
	t.Helper()
	var s servers.ExportSnapshot
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

const oldSnap = `{"serverId":"srv_1","exportedAt":"2026-01-01T00:00:00Z",
 "tools":[{"name":"echo","description":"Echo","inputSchema":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}},
          {"name":"gone","inputSchema":{"type":"object"}}],
 "resources":[{"uri":"file:///a","name":"a","mimeType":"text/plain"}],
 "prompts":[{"name":"greet","arguments":[{"name":"name","required":true}]}]}`

func TestDiff(t *testing.T) {
	t.Parallel()
	old := snapshot(t, oldSnap)
	changed := snapshot(t, `{"serverId":"srv_2","exportedAt":"2026-02-01T00:00:00Z",
 "tools":[{"name":"new","inputSchema":{"type":"object"}},
          {"name":"echo","description":"Echo back","inputSchema":{"type":"object","properties":{"q":{"type":"integer"},"n":{"type":"number"}},"required":["q"]}}],
 "resources":[{"uri":"file:///a","name":"a","mimeType":"text/markdown"},{"uri":"file:///b","name":"b"}],
 "prompts":[{"name":"greet","arguments":[{"name":"name","required":true},{"name":"style"}]}]}`)

	d := servers.Diff(old, changed)
	want := `~ tool "echo"
    description: "Echo" → "Echo back"
    inputSchema.properties.n: (absent) → {"type":"number"}
    inputSchema.properties.q.type: "string" → "integer"
- tool "gone"
+ tool "new"
~ resource "file:///a"
    mimeType: "text/plain" → "text/markdown"
+ resource "file:///b"
~ prompt "greet"
    arguments[1]: (absent) → {"name":"style"}
`
	if diff := cmp.Diff(want, d.String()); diff != "" {
		t.Errorf("String (-want +got):\n%s", diff)
	}
	if d.Equal() {
		t.Error("Equal = true")
	}
	// Stable: the same inputs render the same text every time.
	for range 20 {
		if got := servers.Diff(old, changed).String(); got != d.String() {
			t.Fatalf("unstable output:\n%s", got)
		}
	}
	// The reverse diff swaps added and removed.
	rev := servers.Diff(changed, old)
	if rev.Changes[1].Op != servers.OpAdded || rev.Changes[1].Name != "gone" {
		t.Errorf("reverse: %+v", rev.Changes[1])
	}
}

func TestDiffIgnoresExportedAtAndGoTypes(t *testing.T) {
	t.Parallel()
	a := snapshot(t, oldSnap)
	// The same primitives built in Go, exported at another time.
	b := &servers.ExportSnapshot{ServerID: "srv_9", ExportedAt: time.Now(),
		Tools: []*mcp.Tool{
			{Name: "gone", InputSchema: map[string]any{"type": "object"}},
			{Name: "echo", Description: "Echo", InputSchema: map[string]any{"type": "object",
				"properties": map[string]any{"q": map[string]any{"type": "string"}}, "required": []string{"q"}}},
		},
		Resources: []*mcp.Resource{{URI: "file:///a", Name: "a", MIMEType: "text/plain"}},
		Prompts:   []*mcp.Prompt{{Name: "greet", Arguments: []*mcp.PromptArgument{{Name: "name", Required: true}}}},
	}
	d := servers.Diff(a, b)
	if !d.Equal() || d.String() != "" {
		t.Errorf("Diff of equal snapshots:\n%s", d)
	}
	if d := servers.Diff(nil, nil); !d.Equal() {
		t.Error("nil snapshots differ")
	}
	if d := servers.Diff(nil, a); len(d.Changes) != 4 {
		t.Errorf("from nil: %d changes, want 4 added", len(d.Changes))
	}
}

// Numbers compare by value at full precision: 1.0 is 1, but two integers
// past float64's precision are two numbers.
func TestDiffNumbersByValue(t *testing.T) {
	t.Parallel()
	mk := func(max string) *servers.ExportSnapshot {
		return &servers.ExportSnapshot{Tools: []*mcp.Tool{{Name: "t",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer","maximum":` + max + `}}}`)}}}
	}
	if d := servers.Diff(mk("9007199254740993"), mk("9007199254740992")); d.Equal() {
		t.Error("maximum 9007199254740993 and 9007199254740992 compare equal")
	}
	if d := servers.Diff(mk("1.0"), mk("1e0")); !d.Equal() {
		t.Errorf("1.0 and 1e0 differ:\n%s", d)
	}
}

// Two tools of one name (a server bug Diff should surface) are both
// compared: neither hides the other.
func TestDiffDuplicateNames(t *testing.T) {
	t.Parallel()
	old := &servers.ExportSnapshot{Tools: []*mcp.Tool{{Name: "x", Description: "v1"}, {Name: "x", Description: "v2"}}}
	new := &servers.ExportSnapshot{Tools: []*mcp.Tool{{Name: "x", Description: "v2"}}}
	d := servers.Diff(old, new)
	if want := "~ tool \"x\"\n    description: \"v1\" → \"v2\"\n- tool \"x #2\"\n"; d.String() != want {
		t.Errorf("diff:\n%s\nwant:\n%s", d, want)
	}
}
