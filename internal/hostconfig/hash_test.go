package hostconfig

import (
	"encoding/json"
	"math"
	"testing"
)

// base is the minimal host config of the vectors below.
const base = `"hostStyle":"claude","modelId":"anthropic/claude-sonnet-4-6","systemPrompt":"You are a helpful assistant.",` +
	`"temperature":0.7,"requireToolApproval":false,"clientCapabilities":{},"hostContext":{}`

// The service's own content addresses for these inputs (the SHA-256 hex its
// canonicalizer gives them, from its published golden vectors): the
// canonical JSON must match it byte for byte, key order included.
func TestIDIsTheServiceContentAddress(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, in, want string }{
		{"minimal", `{` + base + `,"connectionDefaults":{"headers":{},"requestTimeout":10000}}`,
			"f6df30e89bb13c7b9fe2a098bcdd1e2778a0612d831cd4497471ca8ef2a4d729"},
		{"explicit false flags", `{` + base + `,"connectionDefaults":{"headers":{},"requestTimeout":10000},` +
			`"progressiveToolDiscovery":false,"respectToolVisibility":false}`,
			"a33c0cf10401316cdce2f679ad3be66938ed3644f1e48be4c8e5c71d5c0ec458"},
		{"headers and capabilities in any key order", `{"hostStyle":"claude","modelId":"anthropic/claude-sonnet-4-6",` +
			`"systemPrompt":"You are a helpful assistant.","temperature":0.7,"requireToolApproval":false,` +
			`"connectionDefaults":{"headers":{"X-Z":"1","A-Header":"2","m-mid":"3"},"requestTimeout":30000},` +
			`"clientCapabilities":{"zeta":true,"alpha":{"nested":1,"deep":2}},"hostContext":{"b":2,"a":1}}`,
			"f95d474377553529dc64a66b48513aec7af86c48eed135d799fa6d30f2dda1eb"},
		{"server ids and overrides", `{` + base + `,"connectionDefaults":{"headers":{},"requestTimeout":10000},` +
			`"serverIds":["srv-c","srv-a","srv-b"],"optionalServerIds":["opt-z","opt-a"],"serverConnectionOverrides":` +
			`{"srv-b":{"headersOverride":{"Z":"1","A":"2"},"requestTimeoutOverride":5000,"mcpProtocolVersionOverride":"2025-06-18"},"srv-a":{}}}`,
			"16092163595b8b24018e0881195832543efbfd7a6f2f7bf27669497488d01a94"},
		{"initialize keeps its version order", `{` + base + `,"connectionDefaults":{"headers":{},"requestTimeout":10000},` +
			`"mcpProfile":{"profileVersion":1,"initialize":{"supportedProtocolVersions":["2025-11-25","2025-06-18"],` +
			`"clientInfo":{"version":"1.2.3","name":"mcpjam","title":"MCPJam"}}}}`,
			"dfd03c7cb66d7056adb4a298fa82fb3fa14de3fd366d60d4f17c71592494839f"},
		{"stateful pin derives the supported versions", `{` + base + `,"connectionDefaults":{"headers":{},"requestTimeout":10000},` +
			`"mcpProfile":{"profileVersion":1,"mcpProtocolVersion":"2025-06-18"}}`,
			"f0f4fb70fcd748a67f8f5f9cc3402453aee6c6d44e03e5fbbb18225666ec9ef3"},
		{"stateless pin", `{` + base + `,"connectionDefaults":{"headers":{},"requestTimeout":10000},` +
			`"mcpProfile":{"profileVersion":1,"mcpProtocolVersion":"2026-07-28"}}`,
			"76b9ef8f4c037389749b4a01ae3a855cc31e5238c7162d32c8ca84e6b67d13ce"},
		{"csp lists sorted", `{` + base + `,"connectionDefaults":{"headers":{},"requestTimeout":10000},` +
			`"mcpProfile":{"profileVersion":1,"apps":{"sandbox":{"csp":{"mode":"declared","restrictTo":{"connectDomains":` +
			`["b.example.com","a.example.com","b.example.com"],"frameDomains":["x.example.com"]},"cspDirectives":` +
			`{"script-src":["'wasm-unsafe-eval'","'unsafe-eval'"]}}}}}}`,
			"2b98518df04a16172cafa4bab520dfe0374d5675ca58955f7cce3ef1ad9b755b"},
		{"permissions in any key order", `{` + base + `,"connectionDefaults":{"headers":{},"requestTimeout":10000},` +
			`"mcpProfile":{"profileVersion":1,"apps":{"sandbox":{"permissions":{"mode":"custom","allow":{"microphone":true,"camera":false}}}}}}`,
			"4a2b8da0632e7191d5ecf26bc127ce2bb7a6378e3c86490755fec6e822e53de6"},
		{"allowFeatures drops the spec's features", `{` + base + `,"connectionDefaults":{"headers":{},"requestTimeout":10000},` +
			`"mcpProfile":{"profileVersion":1,"apps":{"sandbox":{"allowFeatures":{"camera":"*","fullscreen":"'self'","clipboard-write":"*"}}}}}`,
			"c226136ffb697956e33c48ad7b1314ddffa467c3fdd4ad40f9b3d716fd35684d"},
		{"openai compat overrides", `{"hostStyle":"chatgpt","modelId":"anthropic/claude-sonnet-4-6","systemPrompt":"You are a helpful assistant.",` +
			`"temperature":0.7,"requireToolApproval":false,"clientCapabilities":{},"hostContext":{},` +
			`"connectionDefaults":{"headers":{},"requestTimeout":10000},"mcpProfile":{"profileVersion":1,"apps":{"compatRuntime":` +
			`{"openaiApps":true,"openaiAppsOverrides":{"requestDisplayMode":"fullscreen-only","uploadFile":false,"callTool":true}}}}}`,
			"26b8da040cda618cacab9d6b11ff2a49b326b00de30b5a78b17545a1262b9ef4"},
		{"display modes in the service's order", `{` + base + `,"connectionDefaults":{"headers":{},"requestTimeout":10000},` +
			`"mcpProfile":{"profileVersion":1,"apps":{"mcpAppsOverrides":{"availableDisplayModes":["pip","inline"],` +
			`"widgetDisplayModeRequests":"user-initiated-only","logging":true}}}}`,
			"a077644d119560766044be1bba3d1dd139e61cab9c914f9cec63930b48aed2df"},
		{"explicit empty capabilities override", `{` + base + `,"connectionDefaults":{"headers":{},"requestTimeout":10000},` +
			`"hostCapabilitiesOverride":{},"chatUiOverride":{"logo":"x"}}`,
			"688fa1203c5197fe044ef781fbe5ca459cc963d3cb919310161fbc1179c05785"},
		{"stray deny lists dropped", `{` + base + `,"connectionDefaults":{"headers":{},"requestTimeout":10000},` +
			`"mcpProfile":{"profileVersion":1,"apps":{"sandbox":{"csp":{"mode":"declared","restrictTo":{"connectDomains":["api.example.com"]},` +
			`"deny":{"connectDomains":["evil.example.com"]}},"permissions":{"mode":"custom","allow":{"camera":true},"deny":["microphone"]}}}}}`,
			"1f3ea06ff2905d5229c231cea0578a4ffd152ff7d791e13a52169c004082da28"},
	} {
		var in map[string]any
		if err := json.Unmarshal([]byte(tt.in), &in); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		canon, err := Canonicalize(in)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := ID(canon); got != tt.want {
			t.Errorf("%s: ID = %s, want %s\n%s", tt.name, got, tt.want, CanonicalJSON(canon))
		}
	}
}

// What JSON.stringify writes for the service's sorted objects, checked
// against node: integer-like keys first, UTF-16 order ("😀" before
// "\uffff"), U+2028 and <&> raw, -0 as 0, and a key named mcpProfile
// below the top sorted like any other.
func TestCanonicalJSONIsJavaScripts(t *testing.T) {
	t.Parallel()
	canon := map[string]any{"schemaVersion": 2.0, "temperature": math.Copysign(0, -1), "hostContext": map[string]any{
		"10": 1.0, "9": 2.0, "b": 3.0, "a\u2028b": "x\u2029y<&>", "mcpProfile": map[string]any{"a": 1.0, "profileVersion": 1.0},
		"😀": 1.0, "\uffff": 2.0, "017": 4.0}}
	want := "{\"schemaVersion\":2,\"temperature\":0,\"hostContext\":{\"9\":2,\"10\":1,\"017\":4,\"a\u2028b\":\"x\u2029y<&>\"," +
		"\"b\":3,\"mcpProfile\":{\"a\":1,\"profileVersion\":1},\"😀\":1,\"\uffff\":2}}"
	if got := string(CanonicalJSON(canon)); got != want {
		t.Errorf("CanonicalJSON =\n%s\nwant\n%s", got, want)
	}
}

// A number beyond a double's range is Infinity to JavaScript, which
// JSON.stringify writes as null: the canonical text stays JSON.
func TestCanonicalJSONOverflowIsNull(t *testing.T) {
	t.Parallel()
	canon := map[string]any{"hostContext": map[string]any{"big": json.Number("1e400"), "neg": json.Number("-1e400"), "inf": math.Inf(1)}}
	got := CanonicalJSON(canon)
	if want := `{"hostContext":{"big":null,"inf":null,"neg":null}}`; string(got) != want {
		t.Errorf("CanonicalJSON = %s, want %s", got, want)
	}
}
