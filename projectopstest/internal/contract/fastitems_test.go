package contract

import (
	"bytes"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ingestDoc is the ingest document as the contract loads it.
func ingestDoc(t testing.TB) any {
	t.Helper()
	raw, err := data.ReadFile(files[docIngest])
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// resultSchema compiles the ingest result schema with the contract's
// validator, as the route's body schema refers to it.
func resultSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	doc := ingestDoc(t)
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

// fastRich is a valid result using every part of the schema.
const fastRich = `{"caseTitle":"t","query":"q","passed":false,"durationMs":1.5,"provider":"p","model":"m",` +
	`"expectedToolCalls":[{"toolName":"add","arguments":{"a":1}}],"actualToolCalls":[{"toolName":"add"}],` +
	`"tokens":{"input":1,"output":2,"total":3},"error":"e","errorDetails":"d",` +
	`"trace":{"messages":[{"role":"user","content":"hi"}],"spans":[{"id":"s","name":"n","category":"tool","startMs":0,"endMs":1,"status":"ok"}],"prompts":[],"raw":{"x":1}},` +
	`"externalIterationId":"i","externalCaseId":"c","caseId":"c","metadata":{"k":"v","n":1,"b":true,"predicates":[{"passed":true}]},"isNegativeTest":false,` +
	`"expectedOutput":"o","advancedConfig":{"temperature":0.2},` +
	`"widgetSnapshots":[{"toolCallId":"c","toolName":"t","protocol":"mcp-apps","serverId":"s","resourceUri":"ui://x","toolMetadata":{},` +
	`"widgetCsp":null,"widgetPermissions":{},"widgetPermissive":false,"prefersBorder":true,"widgetHtmlBlobId":"b"}],` +
	`"matchOptions":{"toolCallOrder":"strict","maxExtraToolCalls":null,"allowExtraToolCalls":true,"argumentMatching":"partial"}}`

// setPath sets the value at a "/"-separated path of object keys and array
// indexes in a copy of v; ok is false when the path does not exist.
func setPath(v any, path []string, val any) (any, bool) {
	if len(path) == 0 {
		return val, true
	}
	switch v := v.(type) {
	case map[string]any:
		m := maps.Clone(v)
		child, ok := m[path[0]]
		if !ok && len(path) > 1 {
			return nil, false
		}
		if m[path[0]], ok = setPath(child, path[1:], val); !ok {
			return nil, false
		}
		return m, true
	case []any:
		i, err := strconv.Atoi(path[0])
		if err != nil || i < 0 || i >= len(v) {
			return nil, false
		}
		a := slices.Clone(v)
		var ok bool
		if a[i], ok = setPath(v[i], path[1:], val); !ok {
			return nil, false
		}
		return a, true
	}
	return nil, false
}

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
		{fastRich, "widgetSnapshots/0/protocol", `"other"`},
		{fastRich, "widgetSnapshots/0/widgetCsp", `"x"`},
		{fastRich, "widgetSnapshots/0/widgetPermissions", `null`},
		{fastRich, "matchOptions/maxExtraToolCalls", `"2"`},
		{fastRich, "matchOptions/toolCallOrder", `"random"`},
		{fastRich, "trace/spans/0/category", `"other"`},
		{fastRich, "trace/spans/0/endMs", `"1"`},
		{fastRich, "trace/messages/0/role", `1`},
		{fastRich, "trace/raw", `null`},
		{fastRich, "expectedToolCalls/0/toolName", `null`},
		{fastRich, "expectedToolCalls/0/arguments", `[]`},
		{fastRich, "tokens/total", `"3"`},
		{fastRich, "advancedConfig", `"x"`},
		{`[]`, "", ``},
		{`null`, "", ``},
	} {
		f.Add([]byte(s.item), s.field, []byte(s.val))
	}
	contract := resultSchema(f)
	item, err := fastItemSchema(lookup(ingestDoc(f), "$defs"))
	if err != nil {
		f.Fatal(err)
	}
	fast := newFastResults(item)
	check := func(t *testing.T, item any) {
		if fast.accepts([]any{item}) && contract.Validate(item) != nil {
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
		if mutated, ok := setPath(m, strings.Split(field, "/"), val); ok {
			check(t, mutated)
		}
	})
}

// Every keyword of the schema, each broken at a deep path: kin-openapi
// refuses each (its OpenAPI 3.0 visitor ignores const: fastKeywords
// rewrites it to enum), and accepts the valid rich result.
func TestFastKeywords(t *testing.T) {
	t.Parallel()
	contract := resultSchema(t)
	item, err := fastItemSchema(lookup(ingestDoc(t), "$defs"))
	if err != nil {
		t.Fatal(err)
	}
	rich, _ := Decode([]byte(fastRich))
	if err := item.VisitJSON(rich); err != nil {
		t.Fatalf("the fast path refuses a valid rich result: %v", err)
	}
	fast := newFastResults(item)
	if !fast.accepts([]any{rich, rich}) {
		t.Fatal("the fast path refuses an array of valid rich results")
	}
	if err := contract.Validate(rich); err != nil {
		t.Fatalf("the contract refuses the rich result: %v", err)
	}
	for _, tc := range []struct{ path, val string }{
		{"widgetSnapshots/0/protocol", `"other"`}, {"widgetSnapshots/0/protocol", `5`},
		{"widgetSnapshots/0/widgetCsp", `"x"`}, {"widgetSnapshots/0/extra", `1`},
		{"matchOptions/maxExtraToolCalls", `"2"`}, {"matchOptions/toolCallOrder", `"random"`},
		{"trace/spans/0/category", `"other"`}, {"trace/spans/0/endMs", `"1"`}, {"trace", `5`},
		{"trace/messages/0/role", `1`}, {"expectedToolCalls/0/toolName", `null`},
		{"expectedToolCalls/0/arguments", `[]`}, {"tokens/total", `"3"`}, {"tokens/extra", `1`},
		{"advancedConfig", `"x"`}, {"caseTitle", `""`}, {"durationMs", `"1"`}, {"metadata", `[1]`},
		{"passed", `null`}, {"isNegativeTest", `"no"`},
	} {
		val, _ := Decode([]byte(tc.val))
		bad, ok := setPath(rich, strings.Split(tc.path, "/"), val)
		if !ok {
			t.Fatalf("no path %s", tc.path)
		}
		if contract.Validate(bad) == nil {
			t.Errorf("%s=%s: the contract accepts it", tc.path, tc.val)
		}
		if fast.accepts([]any{rich, bad}) {
			t.Errorf("%s=%s: the fast path accepts what the contract refuses", tc.path, tc.val)
		}
	}
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

// The fast path is safe for concurrent use: the double checks bodies of
// concurrent requests at once.
func TestFastPathConcurrent(t *testing.T) {
	t.Parallel()
	route := mustLoad(t).Route("POST", "/projects/{projectId}/eval-ingest/runs/iterations")
	body, _ := Decode([]byte(`{"runId":"r","results":[` + fastRich + `,` + fastBase + `]}`))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if !route.fastAccepts(body) {
					t.Error("the fast path refused a valid body")
					return
				}
			}
		})
	}
	wg.Wait()
}
