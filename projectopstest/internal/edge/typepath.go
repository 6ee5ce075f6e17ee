package edge

import (
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/projectops/projectops-go/internal/jsonerr"
)

// typeRefusal names, by position, the first value of a parsed body (obj
// as contract.Decode returns it) that dst's Go type cannot hold, as a
// VALIDATION_ERROR; nil when it finds none. A handler's type is stricter
// than the contract where the reference leaves an object open (an eval
// step's assertion, for one), and encoding/json names such a value by its
// struct path ("tests.Test.steps.assertion.args": a Go type name, no
// indexes), which a client cannot act on; this names it as every other
// refusal does ("tests[0].steps[1].assertion.args").
func typeRefusal(obj map[string]any, dst any) *Error {
	t := reflect.TypeOf(dst)
	if t == nil {
		return nil
	}
	if f, want := misfit(obj, t, ""); want != "" {
		return Validation(f, fmt.Sprintf("Field %q must be %s", f, want))
	}
	return nil
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// misfit walks v against t in encoding/json's rules and returns the path
// of the first value t cannot hold and what it must be ("" when all fit).
// Members are visited in key order, so the answer does not depend on the
// body's order. A type with its own decoding is trusted with what it is
// given, except a struct with JSON fields, whose fields are still typed
// (evals' open objects decode their modelled fields through a copy of the
// struct).
func misfit(v any, t reflect.Type, path string) (string, string) {
	if v == nil { // null decodes into anything, as the zero value
		return "", ""
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pt := reflect.PointerTo(t)
	custom := pt.Implements(unmarshalerType)
	if custom && (t.Kind() != reflect.Struct || len(structFields(t)) == 0) {
		return "", "" // time.Time, a raw message, a host config
	}
	if !custom && pt.Implements(textUnmarshalerType) {
		if _, ok := v.(string); !ok {
			return path, "a string"
		}
		return "", ""
	}
	switch t.Kind() {
	case reflect.Interface:
		return "", ""
	case reflect.String:
		if _, ok := v.(string); !ok {
			return path, "a string"
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return path, "a boolean"
		}
	case reflect.Float32, reflect.Float64:
		if _, ok := v.(float64); !ok {
			return path, "a number"
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n, ok := v.(float64); !ok || !fitsInt(n, t) {
			return path, jsonerr.Kind(t)
		}
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			if _, ok := v.(string); !ok { // []byte is base64 text
				return path, "a string"
			}
			return "", ""
		}
		a, ok := v.([]any)
		if !ok {
			return path, "an array"
		}
		for i, x := range a {
			if f, want := misfit(x, t.Elem(), path+"["+strconv.Itoa(i)+"]"); want != "" {
				return f, want
			}
		}
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return path, "an object"
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if f, want := misfit(m[k], t.Elem(), member(path, k)); want != "" {
				return f, want
			}
		}
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return path, "an object"
		}
		fields := structFields(t)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			ft, known := fields[k]
			if !known { // dropped (bindKnown) or refused by name (strictDecode)
				continue
			}
			if f, want := misfit(m[k], ft, member(path, k)); want != "" {
				return f, want
			}
		}
	}
	return "", ""
}

// fitsInt reports whether n is a whole number t can hold, as
// rebindIntegral reads one (2.0 is 2).
func fitsInt(n float64, t reflect.Type) bool {
	if n != math.Trunc(n) || math.IsInf(n, 0) {
		return false
	}
	if t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64 {
		return n >= 0 && n < math.Ldexp(1, t.Bits())
	}
	lim := math.Ldexp(1, t.Bits()-1)
	return n >= -lim && n < lim
}

// member is path's member k, written as the contract writes one.
func member(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// structFields maps struct type t's JSON field names to their types,
// following embedded structs as encoding/json does; an outer field wins
// over an embedded one of the same name (suiteBody's tests shadow
// CreateSuiteParams' own).
func structFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	var embedded []reflect.Type
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if sf.Anonymous && name == "" {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				embedded = append(embedded, ft)
				continue
			}
		}
		if !sf.IsExported() || slices.Contains(strings.Split(opts, ","), "string") {
			continue // ",string" fields hold their value as text: encoding/json decides
		}
		if name == "" {
			name = sf.Name
		}
		out[name] = sf.Type
	}
	for _, et := range embedded {
		for k, ft := range structFields(et) {
			if _, shadowed := out[k]; !shadowed {
				out[k] = ft
			}
		}
	}
	return out
}
