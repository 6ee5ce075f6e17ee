package contract

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Route is the contract of one operation.
type Route struct {
	// Method and Pattern name the operation ("POST",
	// "/projects/{projectId}/hosts").
	Method, Pattern string

	// segments is Pattern split at "/", for Match.
	segments []string

	// BodyRequired says the reference marks the request body required.
	BodyRequired bool

	// requests holds the request-body schema of each reference version
	// that documents one; a body passes when one of them accepts it.
	requests []*jsonschema.Schema
	// known are the top-level keys either version documents; closed says
	// either version refuses other keys.
	known  map[string]bool
	closed bool

	// rawResponses keeps each success status's schema as written in the
	// 07-09 document, for Missing.
	rawResponses map[string]any
	doc          any

	// envelope checks an error status the route does not list itself.
	envelope *jsonschema.Schema

	// fastItems, on the ingest routes with results, accepts a valid
	// result quickly (fastitems.go).
	fastItems *fastResults

	// responses maps a status ("200", "4XX", "default") to its schema in
	// each version that documents one; none for a response documented
	// without a JSON body.
	responses map[string][]*jsonschema.Schema
}

// HasBody reports whether the reference documents a request body at all.
// An operation without one is bodyless: the double accepts nothing or {}.
func (r *Route) HasBody() bool { return len(r.requests) > 0 }

// CheckRequest checks a decoded request body (as Decode returns it) against
// the route. It returns nil or a *Violation naming the field.
func (r *Route) CheckRequest(body any) error {
	if !r.HasBody() {
		if m, ok := body.(map[string]any); ok && len(m) == 0 {
			return nil
		}
		if m, ok := body.(map[string]any); ok {
			return &Violation{Field: firstKey(m), Message: StrayFields(sortedKeys(m))}
		}
		return &Violation{Message: "JSON body must be an object"}
	}
	if m, ok := body.(map[string]any); ok && r.closed {
		for _, k := range sortedKeys(m) {
			if !r.known[k] {
				return &Violation{Field: k, Message: "Unknown field " + strconv.Quote(k)}
			}
		}
	}
	if r.fastAccepts(body) {
		return nil
	}
	return validateAny(r.requests, body)
}

// CheckResponse checks a decoded response body for status against the
// route's documented responses. An error status the route does not list is
// checked against the error envelope (the specification gives every
// operation its error statuses); an undocumented success status is itself
// a violation.
func (r *Route) CheckResponse(status int, body any) error {
	schemas, ok := r.responseSchema(status)
	if !ok && status >= 400 {
		schemas, ok = []*jsonschema.Schema{r.envelope}, true
	}
	if !ok {
		return &Violation{Message: "status " + strconv.Itoa(status) + " is not documented for " + r.Method + " " + r.Pattern}
	}
	if len(schemas) == 0 {
		return nil // documented without a body
	}
	return validateAny(schemas, body)
}

// validateAny accepts body when one of schemas (either reference version)
// does, else reports the first one's violation.
func validateAny(schemas []*jsonschema.Schema, body any) error {
	var first error
	for _, s := range schemas {
		err := s.Validate(body)
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	return violation(first)
}

// responseSchema finds the schemas for status: the exact code, then its
// range (4XX), then default. None with ok means "no body".
func (r *Route) responseSchema(status int) ([]*jsonschema.Schema, bool) {
	code := strconv.Itoa(status)
	for _, k := range []string{code, code[:1] + "XX", "default"} {
		if s, ok := r.responses[k]; ok {
			return s, true
		}
	}
	return nil, false
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// StrayFields is the message refusing a bodyless write's fields: every
// stray key named, sorted, in the words of the service's environment
// routes (images.ts), not only the one details.field holds.
func StrayFields(keys []string) string {
	return "Unexpected field(s) in body: " + strings.Join(keys, ", ")
}

func firstKey(m map[string]any) string {
	if k := sortedKeys(m); len(k) > 0 {
		return k[0]
	}
	return ""
}

// Missing lists the nullable properties the 07-09 document describes for a
// success response that body leaves out, as paths ("items[].usage"), at
// every depth the document describes. Where the reference types a field
// as nullable the service sends null rather than omitting it, so a double
// that leaves one out is drifting even though the schema, which marks few
// fields required, accepts the body.
func (r *Route) Missing(status int, body any) []string {
	s, ok := r.rawResponses[strconv.Itoa(status)]
	if !ok {
		return nil
	}
	var out []string
	missing(r.doc, s, body, "", &out, 0)
	return out
}

func missing(doc, schema, v any, at string, out *[]string, depth int) {
	if depth > 12 {
		return
	}
	schema, _ = deref(doc, schema, nil)
	switch val := v.(type) {
	case map[string]any:
		props, _ := lookup(schema, "properties").(map[string]any)
		for k, sub := range props {
			x, present := val[k]
			if !present {
				if nullable(doc, sub) {
					*out = append(*out, joinPath(at, k))
				}
				continue
			}
			missing(doc, sub, x, joinPath(at, k), out, depth+1)
		}
	case []any:
		items := lookup(schema, "items")
		for _, x := range val {
			missing(doc, items, x, at+"[]", out, depth+1)
		}
	}
}

func joinPath(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

// nullable reports whether a schema admits null (type null or a list with
// null, or a oneOf/anyOf branch of type null).
func nullable(doc, schema any) bool {
	schema, _ = deref(doc, schema, nil)
	switch t := lookup(schema, "type").(type) {
	case string:
		if t == "null" {
			return true
		}
	case []any:
		for _, x := range t {
			if x == "null" {
				return true
			}
		}
	}
	for _, comb := range []string{"oneOf", "anyOf"} {
		branches, _ := lookup(schema, comb).([]any)
		for _, b := range branches {
			if nullable(doc, b) {
				return true
			}
		}
	}
	return false
}
