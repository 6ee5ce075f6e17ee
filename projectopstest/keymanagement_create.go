package projectopstest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// Bounds of a key's name in the service's create schema
// (routes/web/api-keys.ts), in UTF-16 code units as zod counts them.
const (
	minKeyNameUnits = 1
	maxKeyNameUnits = 120
)

// checkKeyCreate reads and checks the body of a create on the
// key-management surface as the service does before it looks at the
// session: JSON.parse of the body's text (a leading byte-order mark
// dropped; a body of unknown length over the cap, or one that fails to
// read, is "Invalid JSON body" too), then its create schema, {name: 1 to 120 characters,
// organizationId: a non-empty string}, other keys ignored. The first
// failing field is refused with zod's message, prefixed by the field's
// name as the service's parseWithSchema prefixes it.
func checkKeyCreate(r *http.Request) *edge.Error {
	// The router refused a declared length over the cap. A body of unknown
	// length meets the cap as it is read, and there the service's handler
	// catches bodyLimit's error with every other failure of reading JSON
	// (readJsonBody: c.req.json() failing for any reason, a read error
	// too), so it is "Invalid JSON body", not the cap's message.
	data, err := edge.ReadBody(r, edge.MaxBodyBytes)
	if err != nil || len(data) > edge.MaxBodyBytes {
		return edge.Validation("", "Invalid JSON body")
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if !json.Valid(data) { // also JSON.parse("") and JSON.parse(" ")
		return edge.Validation("", "Invalid JSON body")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // 1e400 is a number to JSON.parse, not an error
	var body any
	if err := dec.Decode(&body); err != nil {
		return edge.Validation("", "Invalid JSON body")
	}
	obj, ok := body.(map[string]any)
	if !ok {
		return edge.Validation("", "Invalid input: expected object, received "+zodType(body))
	}
	for _, f := range []struct {
		name     string
		min, max int
	}{{"name", minKeyNameUnits, maxKeyNameUnits}, {"organizationId", 1, 0}} {
		v, sent := obj[f.name]
		if !sent {
			return edge.Validation(f.name, f.name+": Invalid input: expected string, received undefined")
		}
		if msg := zodString(v, f.min, f.max); msg != "" {
			return edge.Validation(f.name, f.name+": "+msg)
		}
	}
	return nil
}

// zodString is zod's message for v as a string of min to max UTF-16 code
// units (max 0: no upper bound), or "" when v is one.
func zodString(v any, minUnits, maxUnits int) string {
	s, ok := v.(string)
	if !ok {
		return "Invalid input: expected string, received " + zodType(v)
	}
	switch n := wire.UTF16Len(s); {
	case n < minUnits:
		return "Too small: expected string to have >=" + strconv.Itoa(minUnits) + " characters"
	case maxUnits > 0 && n > maxUnits:
		return "Too big: expected string to have <=" + strconv.Itoa(maxUnits) + " characters"
	}
	return ""
}

// zodType names a decoded JSON value as zod's messages do.
func zodType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}
