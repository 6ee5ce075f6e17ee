package projectopstest_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/internal/sdktest"

	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/projectopstest"
)

// openAPI is the reference document (the repository's copy, which the
// conformance test also reads).
type openAPI map[string]any

func loadOpenAPI(t *testing.T) openAPI {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "internal", "conformance", "testdata", "reference-openapi.json"))
	if err != nil {
		t.Fatalf("reference OpenAPI document: %v", err)
	}
	var doc openAPI
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// resolve follows a local $ref ("#/components/...").
func (d openAPI) resolve(node map[string]any) map[string]any {
	for {
		ref, ok := node["$ref"].(string)
		if !ok {
			return node
		}
		var cur any = map[string]any(d)
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			cur = cur.(map[string]any)[part]
		}
		node = cur.(map[string]any)
	}
}

// responseSchema is the JSON schema of path/method/status.
func (d openAPI) responseSchema(t *testing.T, path, method string, status int) map[string]any {
	t.Helper()
	op, _ := d["paths"].(map[string]any)[path].(map[string]any)[strings.ToLower(method)].(map[string]any)
	if op == nil {
		t.Fatalf("no operation %s %s in the reference", method, path)
	}
	resp, _ := op["responses"].(map[string]any)[strconv.Itoa(status)].(map[string]any)
	if resp == nil && status >= 400 {
		// The specification (section 7) puts every error in the envelope,
		// including statuses an operation's reference entry does not list.
		return d.resolve(map[string]any{"$ref": "#/components/schemas/Error"})
	}
	if resp == nil {
		t.Fatalf("%s %s: status %d not documented", method, path, status)
	}
	resp = d.resolve(resp)
	schema, _ := resp["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)
	return d.resolve(schema)
}

// check validates v against schema: types, required properties, enums,
// array items and nested objects. Unknown properties are allowed.
func (d openAPI) check(schema map[string]any, v any, at string) []string {
	schema = d.resolve(schema)
	var errs []string
	if alts, ok := schema["oneOf"].([]any); ok && schema["type"] == nil {
		for _, alt := range alts {
			if len(d.check(alt.(map[string]any), v, at)) == 0 {
				return nil
			}
		}
		return []string{at + ": matches no oneOf alternative"}
	}
	if types := schemaTypes(schema["type"]); len(types) > 0 && !slices.Contains(types, jsonType(v)) &&
		!(jsonType(v) == "integer" && slices.Contains(types, "number")) {
		return []string{fmt.Sprintf("%s: type %s, want %v", at, jsonType(v), types)}
	}
	if enum, ok := schema["enum"].([]any); ok && !slices.Contains(enum, v) {
		errs = append(errs, fmt.Sprintf("%s: %v not in enum %v", at, v, enum))
	}
	switch x := v.(type) {
	case map[string]any:
		for _, r := range asStrings(schema["required"]) {
			if _, ok := x[r]; !ok {
				errs = append(errs, at+": missing required "+r)
			}
		}
		props, _ := schema["properties"].(map[string]any)
		for k, val := range x {
			if p, ok := props[k].(map[string]any); ok {
				errs = append(errs, d.check(p, val, at+"."+k)...)
			} else if ap, ok := schema["additionalProperties"].(map[string]any); ok {
				errs = append(errs, d.check(ap, val, at+"."+k)...)
			}
		}
	case []any:
		if items, ok := schema["items"].(map[string]any); ok {
			for i, it := range x {
				errs = append(errs, d.check(items, it, fmt.Sprintf("%s[%d]", at, i))...)
			}
		}
	}
	return errs
}

func schemaTypes(t any) []string {
	switch t := t.(type) {
	case string:
		return []string{t}
	case []any:
		return asStrings(t)
	}
	return nil
}

func asStrings(v any) []string {
	arr, _ := v.([]any)
	var out []string
	for _, s := range arr {
		if str, ok := s.(string); ok {
			out = append(out, str)
		}
	}
	return out
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

// TestResponsesMatchReference drives every route the double serves and
// holds each answer, success and error alike, to the reference schema.
func TestResponsesMatchReference(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithSeed(projectopstest.DemoSeed()))
	tg := inproc(srv)
	owner, guest := projectopstest.DemoOwnerKey, projectopstest.DemoGuestKey
	var created hosts.HostDetail
	tg.call(t, "POST", "/projects/prj_demo/hosts", owner, map[string]any{"name": "Tmp", "template": "mistral"}).decode(t, &created)

	tests := []struct {
		method, path, specPath, key string
		body                        any
		status                      int
	}{
		{"GET", "/me", "/me", owner, nil, 200},
		{"GET", "/me", "/me", "", nil, 401},
		{"GET", "/me", "/me", guest, nil, 403},
		{"GET", "/projects", "/projects", owner, nil, 200},
		{"GET", "/projects/prj_demo/servers", "/projects/{projectId}/servers", owner, nil, 200},
		{"GET", "/projects/prj_nope/servers", "/projects/{projectId}/servers", owner, nil, 404},
		{"GET", "/chat-sessions?limit=1", "/chat-sessions", owner, nil, 200},
		{"GET", "/host-catalog", "/host-catalog", "", nil, 200},
		{"GET", "/harness/claude-code/builtin-tools", "/harness/{harnessId}/builtin-tools", owner, nil, 200},
		{"GET", "/harness/nope/builtin-tools", "/harness/{harnessId}/builtin-tools", owner, nil, 404},
		{"GET", "/projects/prj_demo/chatboxes", "/projects/{projectId}/chatboxes", owner, nil, 200},
		{"GET", "/projects/prj_demo/chatboxes/cbx_support", "/projects/{projectId}/chatboxes/{chatboxId}", owner, nil, 200},
		{"GET", "/projects/prj_demo/hosts", "/projects/{projectId}/hosts", owner, nil, 200},
		{"POST", "/projects/prj_demo/hosts", "/projects/{projectId}/hosts", owner, map[string]any{"name": "C", "config": sdktest.HostConfig(nil)}, 201},
		{"POST", "/projects/prj_demo/hosts", "/projects/{projectId}/hosts", owner, map[string]any{"name": "C", "extra": 1}, 400},
		{"GET", "/projects/prj_demo/hosts/hst_claude", "/projects/{projectId}/hosts/{hostId}", owner, nil, 200},
		{"PATCH", "/projects/prj_demo/hosts/hst_claude", "/projects/{projectId}/hosts/{hostId}", owner, map[string]any{"name": "Claude 2"}, 200},
		{"DELETE", "/projects/prj_demo/hosts/" + created.ID, "/projects/{projectId}/hosts/{hostId}", owner, nil, 200},
		{"DELETE", "/projects/prj_demo/hosts/hst_nope", "/projects/{projectId}/hosts/{hostId}", owner, nil, 404},
	}
	for _, tt := range tests {
		r := tg.call(t, tt.method, tt.path, tt.key, tt.body)
		if r.status != tt.status {
			t.Errorf("%s %s: status %d, want %d (%s)", tt.method, tt.path, r.status, tt.status, r.body)
			continue
		}
		var v any
		if err := json.Unmarshal(r.body, &v); err != nil {
			t.Errorf("%s %s: %v", tt.method, tt.path, err)
			continue
		}
		for _, e := range doc.check(doc.responseSchema(t, tt.specPath, tt.method, tt.status), v, "body") {
			t.Errorf("%s %s %d: %s", tt.method, tt.path, tt.status, e)
		}
	}
}

// TestSchemaCheckerCatchesMismatch keeps the checker honest: it must flag
// missing required fields, wrong types and values outside an enum.
func TestSchemaCheckerCatchesMismatch(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	schema := doc.responseSchema(t, "/projects/{projectId}/hosts", "GET", 200)
	bad := map[string]any{"items": []any{map[string]any{"id": "h", "name": 5.0, "serverCount": 1.5}}}
	errs := doc.check(schema, bad, "body")
	for _, want := range []string{"missing required hostConfigId", "body.items[0].name: type integer", "body.items[0].serverCount: type number"} {
		if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, want) }) {
			t.Errorf("checker missed %q; got %v", want, errs)
		}
	}
	catalogSchema := doc.responseSchema(t, "/host-catalog", "GET", 200)
	if errs := doc.check(catalogSchema, map[string]any{"source": "cache"}, "body"); !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, "not in enum") }) {
		t.Errorf("checker missed the enum violation: %v", errs)
	}
}
