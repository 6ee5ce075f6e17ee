package conformance

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/servers"
)

type schema struct {
	Type       any                `json:"type"`
	Required   []string           `json:"required"`
	Properties map[string]*schema `json:"properties"`
	Items      *schema            `json:"items"`
	Ref        string             `json:"$ref"`
	OneOf      []*schema          `json:"oneOf"`
	AnyOf      []*schema          `json:"anyOf"`
	AllOf      []*schema          `json:"allOf"`
	Enum       []any              `json:"enum"`
	Const      any                `json:"const"`
	Format     string             `json:"format"`
}

type requestBody struct {
	Ref     string `json:"$ref"`
	Content map[string]struct {
		Schema *schema `json:"schema"`
	} `json:"content"`
}

type document struct {
	Components struct {
		Schemas       map[string]*schema      `json:"schemas"`
		RequestBodies map[string]*requestBody `json:"requestBodies"`
	} `json:"components"`
	// defs are the eval-ingest schema's $defs, for its references.
	defs  map[string]*schema
	Paths map[string]map[string]struct {
		RequestBody *requestBody `json:"requestBody"`
		Responses   map[string]struct {
			Content map[string]struct {
				Schema *schema `json:"schema"`
			} `json:"content"`
		} `json:"responses"`
	} `json:"paths"`
}

// reference is the reference document, read once.
var reference = sync.OnceValues(func() (*document, error) {
	b, err := os.ReadFile("testdata/reference-openapi.json")
	if err != nil {
		return nil, err
	}
	var d document
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, err
	}
	if b, err = os.ReadFile("../../projectopstest/internal/contract/data/eval-ingest.schema.json"); err != nil {
		return nil, err
	}
	var ing struct {
		Defs map[string]*schema `json:"$defs"`
	}
	err = json.Unmarshal(b, &ing)
	d.defs = ing.Defs
	return &d, err
})

// requestOnly reports whether typ is a body the SDK only sends: its params
// types and the eval-ingest result parts.
func requestOnly(typ reflect.Type) bool {
	switch typ {
	case reflect.TypeFor[ingest.Result](), reflect.TypeFor[ingest.ToolCall](), reflect.TypeFor[ingest.CIMetadata](),
		reflect.TypeFor[ingest.MatchOptions](), reflect.TypeFor[ingest.WidgetSnapshot](), reflect.TypeFor[ingest.PassCriteria](),
		reflect.TypeFor[ingest.ServerReplayConfig]():
		return true
	}
	return strings.HasSuffix(typ.Name(), "Params")
}

func load(t *testing.T) *document {
	t.Helper()
	d, err := reference()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// field is a JSON field of a Go struct.
type field struct {
	omitempty bool
}

// jsonFields lists a struct's JSON fields, flattening embedded structs the
// way encoding/json does.
func jsonFields(t reflect.Type) map[string]field {
	out := map[string]field{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() {
			continue
		}
		if f.Anonymous && tag == "" {
			for k, v := range jsonFields(f.Type) {
				out[k] = v
			}
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		out[name] = field{omitempty: strings.Contains(opts, "omitempty")}
	}
	return out
}

// check compares a Go type with a schema: same property names, and required
// properties never dropped by omitempty (the double must always send them).
func check(t *testing.T, name string, s *schema, typ reflect.Type) {
	t.Helper()
	checkFields(t, name, s, typ, nil)
}

// checkFields is check with Go fields that may be absent from the schema
// (goOnly: a field the SDK keeps for another version of the body).
func checkFields(t *testing.T, name string, s *schema, typ reflect.Type, goOnly []string) {
	t.Helper()
	if s == nil {
		t.Fatalf("%s: no schema", name)
	}
	fields := jsonFields(typ)
	for prop := range s.Properties {
		if _, ok := fields[prop]; !ok {
			t.Errorf("%s: schema property %q has no Go field in %s", name, prop, typ)
		}
	}
	for f := range fields {
		if _, ok := s.Properties[f]; !ok && !slices.Contains(goOnly, f) {
			t.Errorf("%s: Go field %q of %s is not in the schema", name, f, typ)
		}
	}
	for _, req := range s.Required {
		if f, ok := fields[req]; ok && f.omitempty {
			t.Errorf("%s: required property %q is omitempty in %s", name, req, typ)
		}
	}
	checkDecodes(t, name, s, typ)
}

// checkDecodes decodes into typ a body the schema allows, once with every
// value present (a fraction for each number, any value where the schema
// leaves the type open) and once with null wherever the schema allows it:
// a name match says nothing of an int field the reference calls a number.
func checkDecodes(t *testing.T, name string, s *schema, typ reflect.Type) {
	t.Helper()
	if requestOnly(typ) {
		return // the SDK sends these and never decodes one from the service
	}
	d, later := load(t), reference0822(t)
	type version struct {
		d *document
		s *schema
	}
	versions := []version{{d, s}}
	if s8 := later.Components.Schemas[name]; s8 != nil { // the same schema in the 08-22 reference
		versions = append(versions, version{later, s8})
	}
	for _, v := range versions {
		for _, nulls := range []bool{false, true} {
			b, err := json.Marshal(sample(v.d, v.s, nulls, 0))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, reflect.New(typ).Interface()); err != nil {
				t.Errorf("%s: a body the reference allows does not decode into %s: %v\n%s", name, typ, err, b)
			}
		}
	}
}

// reference0822 is the components of the 2026-08-22 reference, read once
// (its paths are shaped differently; only its schemas are compared).
var reference0822Doc = sync.OnceValues(func() (*document, error) {
	b, err := os.ReadFile("../../projectopstest/internal/contract/data/reference-openapi-2026-08-22.json") // the double's copy
	if err != nil {
		return nil, err
	}
	var c struct {
		Components struct {
			Schemas map[string]*schema `json:"schemas"`
		} `json:"components"`
	}
	err = json.Unmarshal(b, &c)
	d := &document{}
	d.Components.Schemas = c.Components.Schemas
	return d, err
})

func reference0822(t *testing.T) *document {
	t.Helper()
	d, err := reference0822Doc()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// sample is a value s allows: null where allowed when nulls is set, else
// a value of its (first non-null) type.
func sample(d *document, s *schema, nulls bool, depth int) any {
	if s == nil || depth > 8 {
		return nil
	}
	if ref, ok := strings.CutPrefix(s.Ref, "#/components/schemas/"); ok {
		return sample(d, d.Components.Schemas[ref], nulls, depth+1)
	}
	if ref, ok := strings.CutPrefix(s.Ref, "#/$defs/"); ok {
		return sample(d, d.defs[ref], nulls, depth+1)
	}
	if s.Const != nil {
		return s.Const
	}
	// A one-element allOf (the 08-22 reference's way of describing a
	// $ref) is sampled as its element.
	for _, alts := range [][]*schema{s.OneOf, s.AnyOf, s.AllOf} {
		if s.Type != nil || s.Properties != nil {
			break // alternatives that only constrain the schema's own shape
		}
		var first *schema
		for _, o := range alts {
			if o.Type == "null" {
				if nulls {
					return nil
				}
				continue
			}
			if first == nil {
				first = o
			}
		}
		if first != nil {
			return sample(d, first, nulls, depth+1)
		}
	}
	typ := ""
	switch v := s.Type.(type) {
	case string:
		typ = v
	case []any:
		for _, x := range v {
			if x == "null" && nulls {
				return nil
			}
			if x != "null" && typ == "" {
				typ, _ = x.(string)
			}
		}
	}
	for _, e := range s.Enum {
		if e != nil {
			return e
		}
	}
	if typ == "" && s.Properties != nil {
		typ = "object"
	}
	switch typ {
	case "number":
		return 2.5
	case "integer":
		return 2
	case "boolean":
		return true
	case "string":
		if s.Format == "date-time" {
			return "2026-07-09T12:00:00Z"
		}
		return "s"
	case "array":
		return []any{sample(d, s.Items, nulls, depth+1)}
	case "object":
		m := map[string]any{}
		for k, p := range s.Properties {
			m[k] = sample(d, p, nulls, depth+1)
		}
		return m
	}
	return "any JSON value" // no type: the reference allows anything
}

func TestSchemasMatchGoTypes(t *testing.T) {
	t.Parallel()
	d := load(t)
	cases := map[string]reflect.Type{
		"Me":                reflect.TypeFor[catalog.Me](),
		"Project":           reflect.TypeFor[catalog.Project](),
		"ChatSession":       reflect.TypeFor[catalog.ChatSession](),
		"Chatbox":           reflect.TypeFor[catalog.Chatbox](),
		"ChatboxDetail":     reflect.TypeFor[catalog.ChatboxDetail](),
		"ChatboxLink":       reflect.TypeFor[catalog.ChatboxLink](),
		"ChatboxServer":     reflect.TypeFor[catalog.ChatboxServer](),
		"ProjectServer":     reflect.TypeFor[servers.Server](),
		"Host":              reflect.TypeFor[hosts.Host](),
		"HostDetail":        reflect.TypeFor[hosts.HostDetail](),
		"HostCreateRequest": reflect.TypeFor[hosts.CreateParams](),
		"HostUpdateRequest": reflect.TypeFor[hosts.UpdateParams](),
		"HostDeleted":       reflect.TypeFor[hosts.Deleted](),
	}
	for name, typ := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			check(t, name, d.Components.Schemas[name], typ)
		})
	}
}

// Inline response schemas (no component name) of the catalog routes.
func TestInlineSchemasMatchGoTypes(t *testing.T) {
	t.Parallel()
	d := load(t)
	ok200 := func(path string) *schema {
		return d.Paths[path]["get"].Responses["200"].Content["application/json"].Schema
	}
	hc := ok200("/host-catalog")
	check(t, "host-catalog", hc, reflect.TypeFor[catalog.HostCatalog]())
	check(t, "host-catalog.catalog", hc.Properties["catalog"], reflect.TypeFor[catalog.HostCatalogContent]())
	bt := ok200("/harness/{harnessId}/builtin-tools")
	check(t, "builtin-tools item", bt.Properties["items"].Items, reflect.TypeFor[catalog.BuiltinTool]())
}

// The collection envelope every page type shares: items and, where the
// reference pages, nextCursor; pager.Page has both (spec section 2).
func TestPageEnvelope(t *testing.T) {
	t.Parallel()
	d := load(t)
	for _, name := range []string{"ChatSessionPage", "ChatboxPage", "HostPage", "ProjectPage", "ProjectServerPage"} {
		s := d.Components.Schemas[name]
		if s == nil {
			t.Fatalf("%s: missing", name)
		}
		props := slices.Sorted(func(yield func(string) bool) {
			for k := range s.Properties {
				if !yield(k) {
					return
				}
			}
		})
		for _, p := range props {
			if p != "items" && p != "nextCursor" {
				t.Errorf("%s: unexpected envelope property %q", name, p)
			}
		}
		if s.Properties["items"] == nil {
			t.Errorf("%s: no items", name)
		}
	}
}
