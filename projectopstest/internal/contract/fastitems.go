package contract

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// The results of an ingest body are most of what the double checks when a
// reporter streams thousands of them: santhosh-tekuri/jsonschema, the
// contract's validator, spends about 3 µs and 49 allocations on each.
// kin-openapi's schema validator accepts a valid result in a third of that
// with a tenth of the garbage, so the ingest routes use it as a fast path:
// the body with its results emptied, then each result, accepted by
// kin-openapi means accepted. Anything it refuses is checked again, whole,
// by the contract's validator, which decides and names the violation as
// it always has. FuzzFastItems holds kin-openapi to never accepting a
// result the contract's validator refuses, so the fast path changes how
// fast a body is accepted, never whether.

// fastItemSchema is the ingest document's result schema (given its
// $defs, which it does not change) for kin-openapi, with its local $refs
// inlined (kin-openapi resolves references within an
// OpenAPI document, not a JSON Schema one).
func fastItemSchema(ingestDefs any) (*openapi3.Schema, error) {
	defs, _ := ingestDefs.(map[string]any)
	var inline func(v any, depth int) (any, error)
	inline = func(v any, depth int) (any, error) {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				target, ok := defs[strings.TrimPrefix(ref, "#/$defs/")]
				if !ok || depth > 8 || len(v) != 1 {
					return nil, fmt.Errorf("contract: result schema: cannot inline %q", ref)
				}
				return inline(target, depth+1)
			}
			out := maps.Clone(v)
			for k, x := range out {
				y, err := inline(x, depth)
				if err != nil {
					return nil, err
				}
				out[k] = y
			}
			return out, nil
		case []any:
			out := make([]any, len(v))
			for i, x := range v {
				y, err := inline(x, depth)
				if err != nil {
					return nil, err
				}
				out[i] = y
			}
			return out, nil
		}
		return v, nil
	}
	result, err := inline(defs["result"], 0)
	if err != nil {
		return nil, err
	}
	if err := fastKeywords(result); err != nil {
		return nil, err
	}
	b, err := json.Marshal(result)
	if err != nil {
		return nil, err
	}
	var s openapi3.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("contract: result schema for kin-openapi: %w", err)
	}
	return &s, nil
}

// fastSupported are the keywords kin-openapi's validator enforces as the
// contract's does (its default visitor follows OpenAPI 3.0, which has no
// const: fastKeywords rewrites const to the one-value enum it means). A
// keyword outside the list in the result schema is a build error, so the
// fast path can never silently skip a rule added to the schema later.
var fastSupported = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true, "items": true,
	"enum": true, "minLength": true, "minimum": true, "maximum": true, "oneOf": true, "description": true,
}

// fastKeywords checks that every keyword of schema is in fastSupported,
// rewriting const to enum in place.
func fastKeywords(schema any) error {
	m, ok := schema.(map[string]any)
	if !ok {
		if _, isBool := schema.(bool); isBool {
			return nil // additionalProperties: false
		}
		return fmt.Errorf("contract: result schema: unexpected %T", schema)
	}
	if c, ok := m["const"]; ok {
		delete(m, "const")
		m["enum"] = []any{c}
	}
	for k, v := range m {
		if !fastSupported[k] {
			return fmt.Errorf("contract: result schema: keyword %q is not enforced by the fast path", k)
		}
		switch k {
		case "properties":
			props, _ := v.(map[string]any)
			for _, p := range props {
				if err := fastKeywords(p); err != nil {
					return err
				}
			}
		case "items", "additionalProperties":
			if err := fastKeywords(v); err != nil {
				return err
			}
		case "oneOf":
			list, _ := v.([]any)
			for _, x := range list {
				if err := fastKeywords(x); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkResultsArray makes sure the fast path's split is exact for the
// body schema def of the ingest document (given its $defs): its results must be an array
// constrained by nothing but each item being a result, or checking the
// body with results emptied and each result alone would skip a rule.
func checkResultsArray(ingestDefs any, def string) error {
	results, _ := lookup(ingestDefs, def, "properties", "results").(map[string]any)
	items, _ := results["items"].(map[string]any)
	if len(results) != 2 || results["type"] != "array" || len(items) != 1 || items["$ref"] != "#/$defs/result" {
		return fmt.Errorf("contract: %s.results is not a plain array of results; the fast path would skip its rules", def)
	}
	return nil
}

// fastAccepts reports whether the fast path accepts body: its results
// emptied by the route's schema, then each result by kin-openapi. False
// means "not known to be valid", never "invalid".
func (r *Route) fastAccepts(body any) bool {
	if r.fastItems == nil || len(r.requests) != 1 {
		return false
	}
	m, ok := body.(map[string]any)
	if !ok {
		return false
	}
	items, ok := m["results"].([]any)
	if !ok {
		return false
	}
	rest := maps.Clone(m)
	rest["results"] = []any{}
	if r.requests[0].Validate(rest) != nil {
		return false
	}
	return r.fastItems.accepts(items)
}

// fastResults checks a results array with kin-openapi's array visitor
// over the result schema, in one pass and failing fast: no error is built
// for a refusal (the contract's validator checks it again and names it),
// nor for the alternatives of a oneOf the value does not take.
type fastResults struct{ array *openapi3.Schema }

func newFastResults(item *openapi3.Schema) *fastResults {
	return &fastResults{&openapi3.Schema{Type: &openapi3.Types{openapi3.TypeArray}, Items: openapi3.NewSchemaRef("", item)}}
}

// accepts reports whether every item is a valid result.
func (f *fastResults) accepts(items []any) bool {
	return f.array.VisitJSON(items, openapi3.FailFast()) == nil
}
