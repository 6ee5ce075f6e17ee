package contract

import (
	"bytes"
	"maps"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// resultSchema compiles the ingest result schema with the contract's
// validator, as the route's body schema refers to it.
func resultSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	raw, err := data.ReadFile(files[docIngest])
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	if err := c.AddResource(docIngest, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(docIngest + "#/$defs/result")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const fastBase = `{"caseTitle":"pkg.TestA","passed":true,"durationMs":10,"externalIterationId":"it-1","externalCaseId":"pkg.TestA",` +
	`"metadata":{"package":"pkg","elapsed":0.01,"goTest":true},"error":"--- FAIL"}`

// FuzzFastItems holds the fast path to the contract: kin-openapi never
// accepts a result that santhosh-tekuri/jsonschema refuses. Each input is
// a whole result, and the same result with one field set to a value.
func FuzzFastItems(f *testing.F) {
	for _, s := range []struct{ item, field, val string }{
		{fastBase, "durationMs", `-1`},
		{fastBase, "caseTitle", `""`},
		{fastBase, "passed", `"yes"`},
		{fastBase, "error", `null`},
		{fastBase, "metadata", `{"nested":{"a":1}}`},
		{fastBase, "metadata", `{"list":[1]}`},
		{fastBase, "metadata", `{"n":null}`},
		{fastBase, "unknownField", `1`},
		{fastBase, "tokens", `{"input":"3"}`},
		{fastBase, "tokens", `{"input":3,"extra":1}`},
		{fastBase, "trace", `"text"`},
		{fastBase, "trace", `[{"role":"user","content":"hi"}]`},
		{fastBase, "trace", `{"messages":[{"role":"user"}]}`},
		{fastBase, "trace", `5`},
		{fastBase, "expectedToolCalls", `[{"toolName":"add","arguments":{"a":1}}]`},
		{fastBase, "actualToolCalls", `[{"arguments":{}}]`},
		{fastBase, "widgetSnapshots", `[{"toolCallId":"c","toolName":"t","protocol":"mcp-apps","serverId":"s","resourceUri":"ui://x","toolMetadata":{},"widgetCsp":null,"widgetPermissions":null}]`},
		{fastBase, "widgetSnapshots", `[{"toolCallId":"c"}]`},
		{fastBase, "matchOptions", `{"unknown":true}`},
		{fastBase, "isNegativeTest", `1`},
		{fastBase, "advancedConfig", `[]`},
		{`{"passed":true}`, "x", `1`},
		{`{"caseTitle":"a","passed":false}`, "provider", `7`},
		{`[]`, "", ``},
		{`null`, "", ``},
	} {
		f.Add([]byte(s.item), s.field, []byte(s.val))
	}
	contract := resultSchema(f)
	fast, err := fastItemSchema()
	if err != nil {
		f.Fatal(err)
	}
	check := func(t *testing.T, item any) {
		if fast.VisitJSON(item) == nil && contract.Validate(item) != nil {
			t.Fatalf("kin-openapi accepts a result the contract refuses: %#v\n%v", item, contract.Validate(item))
		}
	}
	f.Fuzz(func(t *testing.T, itemJSON []byte, field string, valJSON []byte) {
		item, err := Decode(itemJSON)
		if err != nil {
			return
		}
		check(t, item)
		m, ok := item.(map[string]any)
		if !ok || field == "" {
			return
		}
		val, err := Decode(valJSON)
		if err != nil || len(bytes.TrimSpace(valJSON)) == 0 {
			return
		}
		m = maps.Clone(m)
		m[field] = val
		check(t, m)
	})
}

// The fast path accepts the reporter's results and never decides a
// refusal: an invalid result still gets the contract's own violation.
func TestFastPath(t *testing.T) {
	t.Parallel()
	route := mustLoad(t).Route("POST", "/projects/{projectId}/eval-ingest/runs/iterations")
	good, _ := Decode([]byte(`{"runId":"r","results":[` + fastBase + `,` + fastBase + `]}`))
	if !route.fastAccepts(good) {
		t.Error("the fast path refuses a valid chunk")
	}
	bad, _ := Decode([]byte(`{"runId":"r","results":[` + fastBase + `,{"caseTitle":"","passed":true}]}`))
	if route.fastAccepts(bad) {
		t.Error("the fast path accepts an empty caseTitle")
	}
	err := route.CheckRequest(bad)
	if v, ok := err.(*Violation); !ok || v.Field != "results[1].caseTitle" {
		t.Errorf("CheckRequest = %v, want the violation at results[1].caseTitle", err)
	}
}
