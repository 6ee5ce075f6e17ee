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
	"sync"

	"github.com/projectops/projectops-go/internal/jsonerr"
)

// typeRefusal names, by position, the first value of data, the body the
// decoder was given, that dst's Go type cannot hold, as a
// VALIDATION_ERROR; nil when it finds none. A handler's type is stricter
// than the contract where the reference leaves an object open (an eval
// step's assertion, for one), and encoding/json names such a value by its
// struct path ("tests.Test.steps.assertion.args": a Go type name, no
// indexes), which a client cannot act on; this names it as every other
// refusal does ("tests[0].steps[1].assertion.args").
func typeRefusal(data []byte, dst any) *Error {
	t := reflect.TypeOf(dst)
	if t == nil {
		return nil
	}
	v, err := parseNumbers(data)
	if err != nil {
		return nil
	}
	if f, want := misfit(v, t, ""); want != "" {
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
// v is a body parsed with json.Number numbers (see parseNumbers), so a
// number is read from its literal, as the decoder reads it. Members are
// visited in key order, so the answer does not depend on the body's
// order. A type with its own decoding is trusted with what it is given,
// except a struct with JSON fields, whose fields are still typed (evals'
// open objects decode their modelled fields through a copy of the struct).
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
	if t == numberType {
		// A json.Number takes a number, or a string holding one.
		n, isNum := v.(json.Number)
		if s, ok := v.(string); ok {
			n, isNum = json.Number(s), validNumber(s)
		}
		if !isNum || n == "" {
			return path, "a number"
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
		if n, ok := v.(json.Number); !ok || !fitsFloat(n, t) {
			return path, "a number"
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n, ok := v.(json.Number); !ok || !fitsInt(n, t) {
			return path, jsonerr.Kind(t)
		}
	case reflect.Slice, reflect.Array:
		if _, ok := v.(string); ok && t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return "", "" // []byte also takes base64 text
		}
		a, ok := v.([]any)
		if !ok {
			return path, "an array"
		}
		if t.Kind() == reflect.Array && len(a) > t.Len() {
			a = a[:t.Len()] // the decoder skips the elements past a Go array's end
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
			f, known := fieldFor(fields, k)
			if !known || f.quoted { // ignored or refused by name; ",string" text: the decoder decides
				continue
			}
			if f, want := misfit(m[k], f.typ, member(path, k)); want != "" {
				return f, want
			}
		}
	}
	return "", ""
}

var numberType = reflect.TypeFor[json.Number]()

// validNumber reports whether s is a JSON number literal, as the decoder
// checks a string it reads into a json.Number.
func validNumber(s string) bool {
	q, _ := json.Marshal(s) // a string always encodes
	var n json.Number
	return json.Unmarshal(q, &n) == nil
}

// fitsFloat reports whether the decoder reads literal n into float type t
// (it refuses one out of t's range).
func fitsFloat(n json.Number, t reflect.Type) bool {
	_, err := strconv.ParseFloat(string(n), t.Bits())
	return err == nil
}

// fitsInt reports whether literal n is a whole number t can hold: read
// as written, as the decoder reads it, or as rebindIntegral rewrites a
// whole number written as 2.0 or 1e0.
func fitsInt(n json.Number, t reflect.Type) bool {
	return intLiteralFits(string(n), t) || intLiteralFits(integralText(n), t)
}

// intLiteralFits reports whether s, read as the decoder reads an integer,
// is one t can hold.
func intLiteralFits(s string, t reflect.Type) bool {
	if s == "" {
		return false
	}
	var err error
	if t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64 {
		_, err = strconv.ParseUint(s, 10, t.Bits())
	} else {
		_, err = strconv.ParseInt(s, 10, t.Bits())
	}
	return err == nil
}

// integralText is the integer literal a whole number written otherwise
// (2.0, 1e0, -0) equals, or "" when n is not one (1.5) or is already
// written as an integer. JSON Schema's integer, and the service's
// JavaScript, take such a number as the integer it equals.
func integralText(n json.Number) string {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") && s != "-0" {
		return ""
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.IsInf(f, 0) {
		return ""
	}
	if f == 0 {
		return "0" // -0 too
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// member is path's member k, written as the contract writes one.
func member(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// jsonField is a struct field as encoding/json sees it: its name, its
// type, and whether it is ",string" (its value held as JSON text).
type jsonField struct {
	name   string
	typ    reflect.Type
	quoted bool
}

// fieldFor is the field of fields the decoder fills from key k: the one
// named k exactly, else the first whose name matches k without regard to
// case (encoding/json's documented rule).
func fieldFor(fields []jsonField, k string) (jsonField, bool) {
	for _, f := range fields {
		if f.name == k {
			return f, true
		}
	}
	for _, f := range fields {
		if strings.EqualFold(f.name, k) {
			return f, true
		}
	}
	return jsonField{}, false
}

// fieldCache holds structFields' answers by type: bindKnown walks every
// body the contract accepted, and a type's fields never change.
var fieldCache sync.Map // reflect.Type -> []jsonField

// structFields lists struct type t's JSON fields in the decoder's order,
// following embedded structs as encoding/json does; an outer field wins
// over an embedded one of the same name (suiteBody's tests shadow
// CreateSuiteParams' own). The slice is shared: callers must not change it.
func structFields(t reflect.Type) []jsonField {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]jsonField)
	}
	f := listFields(t)
	fieldCache.Store(t, f)
	return f
}

// listFields is structFields, uncached.
func listFields(t reflect.Type) []jsonField {
	var out, embedded []jsonField
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
				embedded = append(embedded, structFields(ft)...)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		out = append(out, jsonField{name: name, typ: sf.Type, quoted: slices.Contains(strings.Split(opts, ","), "string")})
	}
	for _, f := range embedded {
		if !slices.ContainsFunc(out, func(o jsonField) bool { return o.name == f.name }) {
			out = append(out, f)
		}
	}
	return out
}
