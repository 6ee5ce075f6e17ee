package projectopstest_test

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/tunnels"
)

// TestWrongTypedFieldNamedByPosition sends, for every field of the Go type
// a body route reads its body into, a value of the wrong JSON type, and
// holds the refusal to the double's promise (doc.go): a VALIDATION_ERROR
// whose details.field names the value by its position, as
// tests[0].steps[1].assertion.args. Where the reference leaves an object
// open (an assert step's assertion), the value used to reach encoding/json
// and come back as its struct path, "tests.Test.steps.assertion.args": a
// Go type name and no indexes.
func TestWrongTypedFieldNamedByPosition(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	tg := inproc(f.srv)
	p := "/projects/" + f.ws.ProjectID
	steps := func() []any {
		return []any{
			map[string]any{"id": "ask", "kind": "prompt", "prompt": "hi"},
			map[string]any{"id": "check", "kind": "assert", "assertion": map[string]any{
				"type": "toolCalledWith", "toolName": "echo", "args": map[string]any{"args": map[string]any{}}}},
		}
	}
	test := func() map[string]any {
		return map[string]any{"title": "t", "model": "anthropic/claude-haiku-4.5", "runs": 1, "steps": steps()}
	}
	routes := []struct {
		method, path string
		base         func() map[string]any
		typ          reflect.Type
	}{
		{"POST", p + "/eval-suites", func() map[string]any {
			return map[string]any{"name": "s", "serverIds": []any{f.serverID}, "model": "anthropic/claude-haiku-4.5",
				"tests": []any{test()}}
		}, reflect.TypeFor[projectopstest.SuiteBody]()},
		{"POST", p + "/eval-runs", func() map[string]any {
			return map[string]any{"suiteName": "s", "serverIds": []any{f.serverID}, "tests": []any{test()}}
		}, reflect.TypeFor[projectopstest.RunBody]()},
		{"POST", p + "/eval-ingest/runs/start", func() map[string]any {
			return map[string]any{"suiteName": "s", "externalRunId": "e"}
		}, reflect.TypeFor[ingest.RunParams]()},
		{"POST", p + "/eval-ingest/report", func() map[string]any {
			return map[string]any{"suiteName": "s", "externalRunId": "e", "results": []any{}}
		}, reflect.TypeFor[ingest.RunParams]()},
		{"POST", p + "/hosts", func() map[string]any {
			return map[string]any{"name": "h", "template": "claude-desktop"}
		}, reflect.TypeFor[hosts.CreateParams]()},
		{"PATCH", p + "/hosts/hst_nope", func() map[string]any { return map[string]any{"name": "h"} },
			reflect.TypeFor[hosts.UpdateParams]()},
		{"DELETE", p + "/hosts/hst_nope", func() map[string]any { return map[string]any{} },
			reflect.TypeFor[hosts.DeleteParams]()},
		{"POST", p + "/computer-environments", func() map[string]any {
			return map[string]any{"name": "e", "dockerfile": "FROM node:20@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41"}
		}, reflect.TypeFor[environments.CreateParams]()},
		{"PATCH", p + "/computer-environments/env_nope", func() map[string]any { return map[string]any{"name": "e"} },
			reflect.TypeFor[environments.UpdateParams]()},
		{"POST", p + "/tunnels", func() map[string]any { return map[string]any{"name": "t"} },
			reflect.TypeFor[tunnels.CreateParams]()},
	}
	for _, rt := range routes {
		probes := 0
		for _, fp := range typedFields(rt.typ, nil, map[reflect.Type]bool{}) {
			body := rt.base()
			path := setAt(body, fp.path, fp.wrong)
			probes++
			r := tg.call(t, rt.method, rt.path, f.ws.APIKey, body)
			var env struct {
				Code    string         `json:"code"`
				Details map[string]any `json:"details"`
			}
			_ = json.Unmarshal(r.body, &env)
			got, _ := env.Details["field"].(string)
			if r.status != 400 || env.Code != "VALIDATION_ERROR" || !within(got, path) || goTypeNamed(got) {
				t.Errorf("%s %s with %s = %v: %d %s, want a VALIDATION_ERROR naming %s (or a parent of it by position)",
					rt.method, rt.path, path, fp.wrong, r.status, r.body, path)
			}
		}
		if probes == 0 {
			t.Errorf("%s %s: no typed field found in %v", rt.method, rt.path, rt.typ)
		}
	}
	f.srv.Wait()
}

// fieldProbe is one field reachable in a request type: its JSON path (an
// int is an array index, -1 for "the last element the base body has, or
// 0"; a string a member) and a value of the wrong JSON type for it.
type fieldProbe struct {
	path  []any
	wrong any
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// typedFields lists every field of t (and of what it holds) that has a
// JSON type of its own, with a value of another type.
func typedFields(t reflect.Type, path []any, seen map[reflect.Type]bool) []fieldProbe {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pt := reflect.PointerTo(t)
	if pt.Implements(jsonUnmarshaler) && t.Kind() != reflect.Struct {
		return nil // decodes what it is given (a raw message, a host config)
	}
	if pt.Implements(textUnmarshaler) && !pt.Implements(jsonUnmarshaler) {
		return []fieldProbe{{path, 7}}
	}
	var wrong any = "x"
	switch t.Kind() {
	case reflect.Interface:
		return nil
	case reflect.String:
		wrong = 7
	}
	var out []fieldProbe
	if len(path) > 0 {
		out = append(out, fieldProbe{path, wrong})
	}
	if seen[t] {
		return out
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() != reflect.Uint8 {
			out = append(out, typedFields(t.Elem(), append(slices.Clip(path), -1), seen)...)
		}
	case reflect.Map:
		out = append(out, typedFields(t.Elem(), append(slices.Clip(path), "k"), seen)...)
	case reflect.Struct:
		seen[t] = true
		for name, ft := range jsonFields(t) {
			out = append(out, typedFields(ft, append(slices.Clip(path), name), seen)...)
		}
		delete(seen, t)
	}
	return out
}

// jsonFields maps struct t's JSON names to field types as encoding/json
// reads them (embedded structs flattened, an outer name winning).
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	var inner []reflect.Type
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case sf.Anonymous && name == "" && sf.Type.Kind() == reflect.Struct:
			inner = append(inner, sf.Type)
		case sf.IsExported():
			if name == "" {
				name = sf.Name
			}
			out[name] = sf.Type
		}
	}
	for _, it := range inner {
		for k, ft := range jsonFields(it) {
			if _, ok := out[k]; !ok {
				out[k] = ft
			}
		}
	}
	return out
}

// setAt puts v at path in body, making the objects and arrays on the way,
// and returns the path as the double names fields.
func setAt(body map[string]any, path []any, v any) string {
	var name strings.Builder
	var cur any = body
	for i, seg := range path {
		last := i == len(path)-1
		switch s := seg.(type) {
		case string:
			if name.Len() > 0 {
				name.WriteByte('.')
			}
			name.WriteString(s)
			m := cur.(map[string]any)
			if last {
				m[s] = v
				break
			}
			if _, ok := m[s]; !ok {
				if _, isIndex := path[i+1].(int); isIndex {
					m[s] = []any{}
				} else {
					m[s] = map[string]any{}
				}
			}
			cur = m[s]
			if a, ok := cur.([]any); ok && len(a) == 0 { // make room for element 0
				m[s] = []any{nil}
				cur = m[s]
			}
		case int:
			a := cur.([]any)
			idx := len(a) - 1
			name.WriteString("[" + strconv.Itoa(idx) + "]")
			if last {
				a[idx] = v
				break
			}
			if a[idx] == nil {
				a[idx] = map[string]any{}
			}
			cur = a[idx]
		}
	}
	return name.String()
}

// within reports whether field is path or one of its parents, cut at a
// member or index boundary.
func within(field, path string) bool {
	if field == "" || !strings.HasPrefix(path, field) {
		return false
	}
	rest := path[len(field):]
	return rest == "" || rest[0] == '.' || rest[0] == '['
}

// goTypeNamed reports whether a member of field starts with a capital, as
// Go's type names do and the API's camelCase names never do.
func goTypeNamed(field string) bool {
	for _, m := range strings.FieldsFunc(field, func(r rune) bool { return r == '.' || r == '[' }) {
		if r := []rune(m)[0]; unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// TestCaseDifferingNestedKeyIgnored: a key differing only in case from a
// modelled one is unknown to the service's schemas, which read keys
// exactly (an assertion passes it through unread: "NEEDLE" does not set
// the needle), so the double does not refuse it for its type, at any
// depth, as it already did not at the top (edge's bindKnown test shows it
// does not override the modelled key either).
func TestCaseDifferingNestedKeyIgnored(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	tg := inproc(f.srv)
	p := "/projects/" + f.ws.ProjectID
	body := `{"name":"s","serverIds":["` + f.serverID + `"],"model":"anthropic/claude-haiku-4.5","tests":[{
 "title":"t","model":"anthropic/claude-haiku-4.5","runs":1,"RUNS":"many","steps":[
  {"id":"ask","kind":"prompt","prompt":"hi"},
  {"id":"check","kind":"assert","assertion":{"type":"responseContains","needle":"x","NEEDLE":7}}]}]}`
	if r := tg.call(t, "POST", p+"/eval-suites", f.ws.APIKey, body); r.status != 201 {
		t.Errorf("suite create: status %d, want 201: %s", r.status, r.body)
	}
	run := strings.Replace(body, `"name":"s"`, `"suiteName":"s"`, 1)
	run = strings.Replace(run, `"model":"anthropic/claude-haiku-4.5",`, ``, 1) // the run's tests carry it
	if r := tg.call(t, "POST", p+"/eval-runs", f.ws.APIKey, run); r.status/100 != 2 {
		t.Errorf("run create: status %d, want 2xx: %s", r.status, r.body)
	}
	f.srv.Wait()
}
