package hostconfig

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode/utf16"
)

// Invalid is a config the service's validator refuses. Its message is the
// backend's first line ("hostConfigV2: temperature must be finite"), which
// the gateway passes on as a 400 VALIDATION_ERROR.
type Invalid struct{ msg string }

// Error implements error.
func (e *Invalid) Error() string { return "hostConfigV2: " + e.msg }

// Field is the config field the refusal names ("connectionDefaults.
// requestTimeout"): every message starts with it.
func (e *Invalid) Field() string {
	if strings.HasPrefix(e.msg, "ConflictingProtocolVersionPin") {
		return "mcpProfile.mcpProtocolVersion"
	}
	f, _, _ := strings.Cut(e.msg, " ")
	return strings.TrimSuffix(f, ":")
}

func fail(format string, args ...any) error { return &Invalid{fmt.Sprintf(format, args...)} }

// Number reads a JSON number in either decoded form.
func Number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil || math.IsInf(f, 0)
	case int:
		return float64(n), true
	}
	return 0, false
}

// Finite reports a finite JSON number.
func Finite(v any) bool {
	f, ok := Number(v)
	return ok && !math.IsNaN(f) && !math.IsInf(f, 0)
}

// Object is a plain JSON object (not an array, not null).
func Object(v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	return m, ok && m != nil
}

// requiredObject is rules 4 and 8: a required plain object with the
// service's two messages.
func requiredObject(cfg map[string]any, key string) (map[string]any, error) {
	v, ok := cfg[key]
	if !ok || v == nil {
		return nil, fail("%s is required", key)
	}
	m, ok := Object(v)
	if !ok {
		return nil, fail("%s must be a plain object", key)
	}
	return m, nil
}

// stringList reads an array of strings, refusing empty ones when
// nonEmpty; it returns them deduplicated and sorted when sorted.
func stringList(v any, path string, nonEmpty, sorted bool) ([]any, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fail("%s must be an array of strings", path)
	}
	seen := map[string]bool{}
	var out []string
	for _, x := range arr {
		s, ok := x.(string)
		if !ok || (nonEmpty && strings.TrimSpace(s) == "") {
			return nil, fail("%s must contain only non-empty strings", path)
		}
		if sorted && seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	if sorted {
		slices.Sort(out)
	}
	res := make([]any, len(out))
	for i, s := range out {
		res[i] = s
	}
	return res, nil
}

// booleanLeaves checks an object against an allowed shape (a nil shape
// value is a boolean leaf, a map a nested object, a []string an enum leaf)
// and returns it canonical: nested objects left without a leaf are dropped,
// and nil is returned when nothing is left, as the service's canonicalizer
// drops an image object that says nothing.
func booleanLeaves(v any, shape map[string]any, path string) (map[string]any, error) {
	m, ok := Object(v)
	if !ok {
		return nil, fail("%s must be a plain object", path)
	}
	out := map[string]any{}
	for k, sub := range m {
		want, known := shape[k]
		if !known {
			return nil, fail("%s.%s is not supported", path, k)
		}
		switch w := want.(type) {
		case nil:
			if _, ok := sub.(bool); !ok {
				return nil, fail("%s.%s must be a boolean", path, k)
			}
			out[k] = sub
		case map[string]any:
			nested, err := booleanLeaves(sub, w, path+"."+k)
			if err != nil {
				return nil, err
			}
			if nested != nil {
				out[k] = nested
			}
		case []string: // an enum leaf
			s, ok := sub.(string)
			if !ok || !slices.Contains(w, s) {
				return nil, fail("%s.%s must be one of %s", path, k, strings.Join(w, ", "))
			}
			out[k] = s
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// DeepCopy copies decoded JSON so a stored config never aliases its input.
func DeepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = DeepCopy(x)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, x := range t {
			a[i] = DeepCopy(x)
		}
		return a
	}
	return v
}

// kebab reports a lowercase kebab-case key ("frame-src"): the service's
// ^[a-z][a-z0-9-]*$.
func kebab(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}

// sortedKeys is the service's Object.keys(m).sort(), the order it checks
// some objects' keys in, so that of several bad keys the same one is
// reported: UTF-16 code unit order, as Array.prototype.sort compares
// strings ("10" before "9", "😀" before "\uffff", unlike Go's byte order).
func sortedKeys(m map[string]any) []string {
	return slices.SortedFunc(maps.Keys(m), func(x, y string) int {
		return slices.Compare(utf16.Encode([]rune(x)), utf16.Encode([]rune(y)))
	})
}
