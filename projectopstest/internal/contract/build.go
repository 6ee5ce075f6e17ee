package contract

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// builder compiles the route table from the raw documents.
type builder struct {
	c      *jsonschema.Compiler
	v1, v2 any
	// ingestDefs are the ingest document's $defs, for the fast path.
	ingestDefs any
	envelope   *jsonschema.Schema
}

var methods = []string{"get", "post", "put", "patch", "delete"}

func (b *builder) routes() (map[string]*Route, error) {
	out := map[string]*Route{}
	paths, _ := lookup(b.v1, "paths").(map[string]any)
	for path, item := range paths {
		for _, m := range methods {
			op, ok := lookup(item, m).(map[string]any)
			if !ok {
				continue
			}
			r, err := b.route(strings.ToUpper(m), path, op)
			if err != nil {
				return nil, err
			}
			out[r.Method+" "+r.Pattern] = r
		}
	}
	ingest, err := b.ingestRoutes()
	if err != nil {
		return nil, err
	}
	for _, r := range ingest {
		out[r.Method+" "+r.Pattern] = r
	}
	return out, nil
}

// route compiles one operation of the 07-09 document, and its request body
// in the 08-22 document when that version has the same operation.
func (b *builder) route(method, path string, op map[string]any) (*Route, error) {
	r := &Route{Method: method, Pattern: path, known: map[string]bool{}, responses: map[string][]*jsonschema.Schema{}, envelope: b.envelope}
	versions := []struct {
		url string
		doc any
		op  any
	}{
		{docV1, b.v1, op},
		{docV2, b.v2, lookup(b.v2, "paths", path, strings.ToLower(method))},
	}
	for _, v := range versions {
		if v.op == nil {
			continue
		}
		body, ptr := deref(v.doc, lookup(v.op, "requestBody"), []string{"paths", path, strings.ToLower(method), "requestBody"})
		if body == nil {
			continue
		}
		if req, _ := lookup(body, "required").(bool); req {
			r.BodyRequired = true
		}
		schemaPtr := slices.Concat(ptr, []string{"content", "application/json", "schema"})
		raw := lookup(v.doc, schemaPtr...)
		if raw == nil {
			continue
		}
		s, err := b.c.Compile(v.url + "#" + pointer(schemaPtr))
		if err != nil {
			return nil, fmt.Errorf("contract: %s %s: %w", method, path, err)
		}
		r.requests = append(r.requests, s)
		top, _ := deref(v.doc, raw, nil)
		collectKeys(v.doc, top, r.known)
		if ap, ok := lookup(top, "additionalProperties").(bool); ok && !ap {
			r.closed = true
		}
	}
	if alias, ok := renamed[path]; ok {
		body, _ := deref(b.v2, lookup(b.v2, "paths", alias, strings.ToLower(method), "requestBody"), nil)
		top, _ := deref(b.v2, lookup(body, "content", "application/json", "schema"), nil)
		if ap, ok := lookup(top, "additionalProperties").(bool); ok && !ap {
			r.closed = true
		}
	}
	r.doc, r.rawResponses = b.v1, map[string]any{}
	for status, resp := range lookup(op, "responses").(map[string]any) {
		if strings.HasPrefix(status, "2") {
			_, ptr := deref(b.v1, resp, []string{"paths", path, strings.ToLower(method), "responses", status})
			if sch := lookup(b.v1, slices.Concat(ptr, []string{"content", "application/json", "schema"})...); sch != nil {
				r.rawResponses[status] = sch
			}
		}
	}
	// A response passes when either version's schema for its status
	// accepts it (08-22 documents, for example, a replayed run's status).
	for _, v := range versions {
		resps, _ := lookup(v.op, "responses").(map[string]any)
		for status, resp := range resps {
			_, ptr := deref(v.doc, resp, []string{"paths", path, strings.ToLower(method), "responses", status})
			if status != "default" {
				status = strings.ToUpper(status) // "4xx" and "4XX" alike
			}
			schemaPtr := slices.Concat(ptr, []string{"content", "application/json", "schema"})
			if lookup(v.doc, schemaPtr...) == nil {
				if _, ok := r.responses[status]; !ok {
					r.responses[status] = nil
				}
				continue
			}
			s, err := b.c.Compile(v.url + "#" + pointer(schemaPtr))
			if err != nil {
				return nil, fmt.Errorf("contract: %s %s %s: %w", method, path, status, err)
			}
			r.responses[status] = append(r.responses[status], s)
		}
	}
	return r, nil
}

// ingestRoutes are the five eval-ingest operations, checked against the
// schema written from the notes; their errors use the reference Error.
func (b *builder) ingestRoutes() ([]*Route, error) {
	errSchema, err := b.c.Compile(docV1 + "#/components/schemas/Error")
	if err != nil {
		return nil, err
	}
	specs := []struct {
		suffix, req, resp string
		results           bool // the body carries a results array of #/$defs/result
	}{
		{"report", "report", "reportResponse", true},
		{"runs/start", "runStart", "runStartResponse", false},
		{"runs/iterations", "runIterations", "runIterationsResponse", true},
		{"runs/finalize", "runFinalize", "finalizeResponse", false},
		{"artifacts/upload-url", "uploadURL", "uploadURLResponse", false},
	}
	var out []*Route
	var fast *fastResults // built once, shared by the routes with results
	for _, s := range specs {
		req, err := b.c.Compile(docIngest + "#/$defs/" + s.req)
		if err != nil {
			return nil, err
		}
		resp, err := b.c.Compile(docIngest + "#/$defs/" + s.resp)
		if err != nil {
			return nil, err
		}
		r := &Route{
			Method: "POST", Pattern: "/projects/{projectId}/eval-ingest/" + s.suffix,
			BodyRequired: true, requests: []*jsonschema.Schema{req},
			known: map[string]bool{}, envelope: b.envelope,
			responses: map[string][]*jsonschema.Schema{"200": {resp}, "4XX": {errSchema}, "5XX": {errSchema}},
		}
		if s.results {
			if err := checkResultsArray(b.ingestDefs, s.req); err != nil {
				return nil, err
			}
			if fast == nil {
				item, err := fastItemSchema(b.ingestDefs)
				if err != nil {
					return nil, err
				}
				fast = newFastResults(item)
			}
			r.fastItems = fast
		}
		// The ingest schema closes its bodies itself; no top-level rule.
		out = append(out, r)
	}
	return out, nil
}

// lookup walks a decoded JSON document by object keys.
func lookup(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// deref follows a local $ref ("#/components/…") from v, returning the
// target and its pointer (ptr when v is not a reference).
func deref(doc, v any, ptr []string) (any, []string) {
	for range 8 {
		ref, ok := lookup(v, "$ref").(string)
		if !ok || !strings.HasPrefix(ref, "#/") {
			return v, ptr
		}
		ptr = nil
		for _, t := range strings.Split(ref[2:], "/") {
			t = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
			ptr = append(ptr, t)
		}
		v = lookup(doc, ptr...)
	}
	return v, ptr
}

// collectKeys adds the property names a schema documents at its top level,
// including those of its anyOf/oneOf/allOf branches.
func collectKeys(doc, s any, known map[string]bool) {
	s, _ = deref(doc, s, nil)
	if props, ok := lookup(s, "properties").(map[string]any); ok {
		for k := range props {
			known[k] = true
		}
	}
	for _, comb := range []string{"anyOf", "oneOf", "allOf"} {
		branches, _ := lookup(s, comb).([]any)
		for _, br := range branches {
			collectKeys(doc, br, known)
		}
	}
}

// pointer renders tokens as a URI-fragment JSON pointer.
func pointer(tokens []string) string {
	var sb strings.Builder
	for _, t := range tokens {
		t = strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
		sb.WriteString("/")
		sb.WriteString(url.PathEscape(t))
	}
	return sb.String()
}
