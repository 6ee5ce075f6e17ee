package evalmodel

import (
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestPickTools(t *testing.T) {
	tools := []*mcp.Tool{
		{Name: "echo", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"message": map[string]any{"type": "string"}}}},
		{Name: "add", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
			"a": map[string]any{"type": "number"}, "b": map[string]any{"type": "number"}}}},
		{Name: "echoes"},
	}
	for _, tc := range []struct {
		prompt string
		want   []string
		args   []map[string]any
	}{
		{"Use add with a=1 b=2, then echo with message=\"hi there\"", []string{"add", "echo"},
			[]map[string]any{{"a": float64(1), "b": float64(2)}, {"message": "hi there"}}},
		{"nothing to call here", nil, nil},
		{"echoed is not echo's name but echo is", []string{"echo"}, []map[string]any{{}}},
		// Words end at any non-name rune, multi-byte ones included; a
		// letter beyond ASCII is part of a name.
		{"Use the \u201cecho\u201d tool with message=hi", []string{"echo"}, []map[string]any{{"message": "hi"}}},
		{"Use echo\u2026 with message=hi", []string{"echo"}, []map[string]any{{"message": "hi"}}},
		{"Use echo\u00a0tool, \u00e9message=x", []string{"echo"}, []map[string]any{{}}},
		{"echo\u00e9 is another name", nil, nil},
		{"Use echo with message=hi\u2026", []string{"echo"}, []map[string]any{{"message": "hi"}}},
		{"Use echo with message=hi\u00a0please", []string{"echo"}, []map[string]any{{"message": "hi"}}},
		{"Use echo with message=\u201chi there\u201d", []string{"echo"}, []map[string]any{{"message": "hi there"}}},
		{"Call echo.\u00a0Then stop", []string{"echo"}, []map[string]any{{}}},
		{"Call echo.\nThen stop", []string{"echo"}, []map[string]any{{}}},
	} {
		calls := PickTools(tc.prompt, tools)
		var names []string
		var args []map[string]any
		for _, c := range calls {
			names = append(names, c.ToolName)
			args = append(args, c.Arguments)
		}
		if !reflect.DeepEqual(names, tc.want) || (tc.args != nil && !reflect.DeepEqual(args, tc.args)) {
			t.Errorf("%q: calls %v %v, want %v %v", tc.prompt, names, args, tc.want, tc.args)
		}
	}
	if ApproxTokens("abcdefgh") != 2 || ApproxTokens("") != 0 {
		t.Error("ApproxTokens")
	}
}
