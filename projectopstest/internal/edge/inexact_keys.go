package edge

import (
	"maps"
	"reflect"
	"slices"
	"strconv"
)

// inexactKeys reports whether body value v, read as Go type t, has a key
// dst takes only through encoding/json's case folding, and with drop
// deletes each such key (v's objects are changed in place). At the top
// level (top) every key not exactly a field name counts. The service's
// schemas read keys exactly: a key differing in case from a modelled one
// is unknown to them, stripped, or kept through a passthrough object and
// never read (an assertion's "NEEDLE" does not set its needle), or
// refused where the object is strict. The contract closes what the
// reference closes (the run and suite bodies, matchOptions); the service
// has since made test steps strict too, which the reference still leaves
// open, and the double follows the reference there. So
// at every depth such a key must not reach the decoder, which would bind
// it onto the modelled field.
func inexactKeys(v any, t reflect.Type, top, drop bool) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) && (t.Kind() != reflect.Struct || len(structFields(t)) == 0) {
		return false // a type decoding itself as a whole (a host config) reads its own keys
	}
	found := false
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		a, _ := v.([]any)
		for _, x := range a {
			if inexactKeys(x, t.Elem(), false, drop) {
				if !drop {
					return true
				}
				found = true
			}
		}
	case reflect.Map:
		m, _ := v.(map[string]any)
		for _, x := range m {
			if inexactKeys(x, t.Elem(), false, drop) {
				if !drop {
					return true
				}
				found = true
			}
		}
	case reflect.Struct:
		m, _ := v.(map[string]any)
		fields := structFields(t)
		if len(m) == 0 || len(fields) == 0 {
			return false // no object, or a type decoding itself as a whole
		}
		for k, x := range m {
			f, ok := fieldFor(fields, k)
			exact := ok && f.name == k
			if (!exact && (top || ok)) || (exact && inexactKeys(x, f.typ, false, drop)) {
				if !drop {
					return true
				}
				found = true
				if !exact {
					delete(m, k)
				}
			}
		}
	}
	return found
}

// inexactPath returns the path ("a.b", "a[0].b") of a key in v, a body
// value read as Go type t, that t does not name exactly: unknown, or
// matching a field only through encoding/json's case folding, which would
// otherwise bind {"NAME": ...} onto name and let it override an earlier
// "name". It returns "" when every key is exact. Keys are tried in sorted
// order, so the key named is the same on every call.
func inexactPath(v any, t reflect.Type, path string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) && (t.Kind() != reflect.Struct || len(structFields(t)) == 0) {
		return "" // a type decoding itself as a whole reads its own keys
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		a, _ := v.([]any)
		for i, x := range a {
			if p := inexactPath(x, t.Elem(), path+"["+strconv.Itoa(i)+"]"); p != "" {
				return p
			}
		}
	case reflect.Map:
		m, _ := v.(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if p := inexactPath(m[k], t.Elem(), member(path, k)); p != "" {
				return p
			}
		}
	case reflect.Struct:
		m, _ := v.(map[string]any)
		fields := structFields(t)
		if len(fields) == 0 {
			return ""
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			f, ok := fieldFor(fields, k)
			if !ok || f.name != k {
				return member(path, k)
			}
			if p := inexactPath(m[k], f.typ, member(path, k)); p != "" {
				return p
			}
		}
	}
	return ""
}
