package servers

import "testing"

// The probe finds every content type go-sdk decodes (so none of them is
// ever dropped) and no other.
func TestKnowsGoSDKContentTypes(t *testing.T) {
	t.Parallel()
	for _, typ := range []string{"text", "image", "audio", "resource_link", "resource", "tool_use", "tool_result"} {
		if !knows(inResult, typ) {
			t.Errorf("a %s block in a tool result reads as unknown", typ)
		}
	}
	for _, typ := range []string{"text", "image", "audio", "resource_link", "resource"} {
		if !knows(inToolResult, typ) || !knows(inPrompt, typ) {
			t.Errorf("a %s block in a tool_result or a prompt message reads as unknown", typ)
		}
	}
	for _, where := range []int{inResult, inToolResult, inPrompt} {
		if knows(where, "x-widget") || !knows(where, "") {
			t.Errorf("where %d: x-widget known or an untyped block judged", where)
		}
	}
}
