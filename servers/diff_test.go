package servers_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/servers"
)

func snapshot(t *testing.T, js string) *servers.ExportSnapshot {
	t.Helper()
	s, err := servers.ParseSnapshot([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ExportSnapshot has no UnmarshalJSON of its own (ParseSnapshot and
// Export set Raw), so a struct embedding it decodes its own fields, an
// outer DisallowUnknownFields holds, and decoding into a filled snapshot
// leaves the fields the document lacks as they were.
func TestExportSnapshotEmbedded(t *testing.T) {
	t.Parallel()
	var outer struct {
		servers.ExportSnapshot
		Tools []json.RawMessage `json:"tools"`
		Extra string            `json:"extra"`
	}
	if err := json.Unmarshal([]byte(`{"serverId":"srv_1","tools":[{"name":"a","execution":{}}],"prompts":[],"extra":"x"}`), &outer); err != nil {
		t.Fatal(err)
	}
	if outer.Extra != "x" || len(outer.Tools) != 1 || string(outer.Tools[0]) != `{"name":"a","execution":{}}` ||
		outer.ServerID != "srv_1" || outer.Prompts == nil || outer.Raw != nil {
		t.Errorf("embedding struct decoded as %+v", outer)
	}
	dec := json.NewDecoder(strings.NewReader(`{"serverId":"srv_1","tools":[],"unknown":1}`))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&outer); err == nil {
		t.Error("DisallowUnknownFields: an unknown field decoded")
	}
	filled := servers.ExportSnapshot{ServerID: "srv_1", Prompts: []*mcp.Prompt{{Name: "p"}}}
	if err := json.Unmarshal([]byte(`{"tools":[]}`), &filled); err != nil || filled.ServerID != "srv_1" || len(filled.Prompts) != 1 {
		t.Errorf("decoding into a filled snapshot: %+v, %v", filled, err)
	}
}

// ParseSnapshot keeps a copy of the document in Raw.
func TestParseSnapshot(t *testing.T) {
	t.Parallel()
	b := []byte(`{"serverId":"srv_1","tools":[{"name":"a","execution":{"taskSupport":"optional"}}],"resources":[],"prompts":[]}`)
	s, err := servers.ParseSnapshot(b)
	if err != nil || s.ServerID != "srv_1" || len(s.Tools) != 1 || s.Tools[0].Name != "a" || string(s.Raw) != string(b) {
		t.Fatalf("ParseSnapshot = %+v, %v", s, err)
	}
	b[0] = ' '
	if s.Raw[0] != '{' {
		t.Error("Raw shares the caller's bytes")
	}
	if _, err := servers.ParseSnapshot([]byte(`{"tools":{}}`)); err == nil {
		t.Error("a tools object parsed")
	}
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

// Decoded snapshots are compared as served: a field go-sdk's types do not
// model (MCP 2025-11-25's execution.taskSupport) and an integer past
// float64's precision are both seen, while equal documents (keys in
// another order, 1.0 for 1, another exportedAt) compare equal.
func TestDiffServed(t *testing.T) {
	t.Parallel()
	mk := func(exec, max, extra string) *servers.ExportSnapshot {
		return snapshot(t, `{"serverId":"srv_1","exportedAt":"2026-01-01T00:00:00Z","resources":[{"uri":"file:///a","x-size":`+extra+`}],"prompts":[],
 "tools":[{"name":"research","execution":{"taskSupport":"`+exec+`"},
   "inputSchema":{"type":"object","properties":{"id":{"type":"integer","maximum":`+max+`}}}}]}`)
	}
	base := mk("required", "9007199254740993", "1")
	if base.Raw == nil {
		t.Fatal("Raw not kept")
	}
	if d := servers.Diff(base, mk("forbidden", "9007199254740993", "1")); d.String() !=
		"~ tool \"research\"\n    execution.taskSupport: \"required\" → \"forbidden\"\n" {
		t.Errorf("execution change:\n%s", d)
	}
	if d := servers.Diff(base, mk("required", "9007199254740992", "1")); d.String() !=
		"~ tool \"research\"\n    inputSchema.properties.id.maximum: 9007199254740993 → 9007199254740992\n" {
		t.Errorf("maximum change:\n%s", d)
	}
	if d := servers.Diff(base, mk("required", "9007199254740993", "2")); d.String() !=
		"~ resource \"file:///a\"\n    x-size: 1 → 2\n" {
		t.Errorf("resource change:\n%s", d)
	}
	same := snapshot(t, `{"tools":[{"inputSchema":{"properties":{"id":{"maximum":9007199254740993,"type":"integer"}},"type":"object"},
 "execution":{"taskSupport":"required"},"name":"research"}],"prompts":[],"resources":[{"x-size":1.0,"uri":"file:///a"}],
 "exportedAt":"2026-03-01T00:00:00Z","serverId":"srv_2"}`)
	if d := servers.Diff(base, same); !d.Equal() {
		t.Errorf("equal served snapshots differ:\n%s", d)
	}
	// same is compared as served: from it, a change to execution alone is
	// seen, and x-size's 1.0 is still 1.
	if d := servers.Diff(same, mk("forbidden", "9007199254740993", "1")); d.String() !=
		"~ tool \"research\"\n    execution.taskSupport: \"required\" → \"forbidden\"\n" {
		t.Errorf("same, compared with a change to execution:\n%s", d)
	}

	// A decoded snapshot copied and edited in Go is compared by its edits
	// (its Raw no longer matches), as is one compared with a snapshot built
	// in Go (which has no Raw): by the typed fields on both sides.
	edited := *base
	tool := *edited.Tools[0]
	tool.Description = "new"
	edited.Tools = []*mcp.Tool{&tool}
	if d := servers.Diff(base, &edited); d.String() != "~ tool \"research\"\n    description: (absent) → \"new\"\n" {
		t.Errorf("edited copy:\n%s", d)
	}
	built := &servers.ExportSnapshot{Tools: []*mcp.Tool{{Name: "research", InputSchema: base.Tools[0].InputSchema}},
		Resources: []*mcp.Resource{{URI: "file:///a"}}, Prompts: []*mcp.Prompt{}}
	if d := servers.Diff(base, built); !d.Equal() {
		t.Errorf("decoded and built in Go differ:\n%s", d)
	}
}

// Each item is compared as served while it still matches an item of Raw:
// reordering, filtering or editing some items of a decoded snapshot in Go
// leaves a served-only change on the others seen.
func TestDiffServedPerItem(t *testing.T) {
	t.Parallel()
	tools := func(exec string) string {
		return `{"serverId":"srv_1","resources":[],"prompts":[],"tools":[
 {"name":"b","inputSchema":{"type":"object"}},
 {"name":"a","inputSchema":{"type":"object"},"execution":{"taskSupport":"` + exec + `"}},
 {"name":"c","inputSchema":{"type":"object"},"execution":{"taskSupport":"` + exec + `"}}]}`
	}
	old := snapshot(t, tools("required"))
	execChange := func(name string) string {
		return "~ tool \"" + name + "\"\n    execution.taskSupport: \"required\" → \"forbidden\"\n"
	}

	reordered := snapshot(t, tools("forbidden"))
	slices.Reverse(reordered.Tools)
	if d := servers.Diff(old, reordered).String(); d != execChange("a")+execChange("c") {
		t.Errorf("reordered in Go:\n%s", d)
	}
	filtered := snapshot(t, tools("forbidden"))
	filtered.Tools = filtered.Tools[1:]
	if d := servers.Diff(old, filtered).String(); d != execChange("a")+"- tool \"b\"\n"+execChange("c") {
		t.Errorf("filtered in Go:\n%s", d)
	}
	// c, edited in Go, is compared by its typed fields (its execution is
	// not among them); a still as served.
	edited := snapshot(t, tools("forbidden"))
	c := *edited.Tools[2]
	c.Description = "new"
	edited.Tools[2] = &c
	if d := servers.Diff(old, edited).String(); d != execChange("a")+"~ tool \"c\"\n    description: (absent) → \"new\"\n" {
		t.Errorf("one item edited in Go:\n%s", d)
	}
	// An edit float64 cannot see still matches the served item, whose
	// number is compared (documented): 9007199254740992 set in Go where
	// Raw has ...993 is not a change.
	precise := snapshot(t, `{"tools":[{"name":"n","inputSchema":{"maximum":9007199254740993}}],"resources":[],"prompts":[]}`)
	invisible := snapshot(t, string(precise.Raw))
	n := *invisible.Tools[0]
	n.InputSchema = map[string]any{"maximum": float64(9007199254740992)}
	invisible.Tools[0] = &n
	if d := servers.Diff(precise, invisible); !d.Equal() {
		t.Errorf("an edit float64 cannot see:\n%s", d)
	}

	// Items that encode alike are matched one to one: a second copy of a
	// served item (added in Go) has none left and is compared typed.
	dup := snapshot(t, tools("forbidden"))
	dup.Tools = append(dup.Tools, dup.Tools[1])
	if d := servers.Diff(old, dup).String(); d != execChange("a")+"+ tool \"a #2\"\n"+execChange("c") {
		t.Errorf("an item appended twice:\n%s", d)
	}
}

// Compared as served, a member that is null and an empty _meta are absent,
// as they are to go-sdk's types; a null in a tool's schema or in a _meta
// is not.
func TestDiffServedNullIsAbsent(t *testing.T) {
	t.Parallel()
	mk := func(extra, exec, schema string) *servers.ExportSnapshot {
		return snapshot(t, `{"serverId":"srv_1","resources":[{"uri":"file:///a"`+extra+`}],"prompts":[{"name":"p"`+extra+`}],
 "tools":[{"name":"t","execution":{"taskSupport":"`+exec+`","x-limit":null}`+extra+`,"inputSchema":`+schema+`}]}`)
	}
	const schema = `{"type":"object","properties":{"x":{"const":null}}}`
	old := mk(`,"description":null,"_meta":{},"title":null`, "required", schema)
	if d := servers.Diff(old, mk("", "required", schema)); !d.Equal() {
		t.Errorf("null and empty _meta differ from absent:\n%s", d)
	}
	// Still compared as served (execution is seen), and a schema's null
	// is a value.
	if d := servers.Diff(old, mk("", "forbidden", `{"type":"object","properties":{"x":{}}}`)).String(); d !=
		"~ tool \"t\"\n    execution.taskSupport: \"required\" → \"forbidden\"\n    inputSchema.properties.x.const: null → (absent)\n" {
		t.Errorf("served changes:\n%s", d)
	}
	// A null in _meta is a value, as in go-sdk's Meta (a map): compared
	// as served or by the typed fields, {"k":null} is not absent.
	metaNull := `,"_meta":{"k":null}`
	for _, old := range []*servers.ExportSnapshot{mk(metaNull, "required", schema), {Tools: []*mcp.Tool{{Name: "t",
		Meta: mcp.Meta{"k": nil}, InputSchema: map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"const": nil}}}}},
		Resources: []*mcp.Resource{{URI: "file:///a", Meta: mcp.Meta{"k": nil}}}, Prompts: []*mcp.Prompt{{Name: "p", Meta: mcp.Meta{"k": nil}}}}} {
		const metaChange = "    _meta: {\"k\":null} → (absent)\n"
		if d := servers.Diff(old, mk("", "required", schema)).String(); d != "~ tool \"t\"\n"+metaChange+
			"~ resource \"file:///a\"\n"+metaChange+"~ prompt \"p\"\n"+metaChange {
			t.Errorf("a null in _meta:\n%s", d)
		}
	}
	// Only a tool's schemas are kept whole: a resource's or a prompt's
	// inputSchema is a field like any other.
	foreign := func(v string) *servers.ExportSnapshot {
		return snapshot(t, `{"resources":[{"uri":"file:///a","inputSchema":{"x":`+v+`}}],"prompts":[{"name":"p","outputSchema":{"x":`+v+`}}],"tools":[]}`)
	}
	if d := servers.Diff(foreign("null"), foreign(`{}`)); d.String() !=
		"~ resource \"file:///a\"\n    inputSchema.x: (absent) → {}\n~ prompt \"p\"\n    outputSchema.x: (absent) → {}\n" {
		t.Errorf("a null in a resource's or a prompt's schema:\n%s", d)
	}
}
