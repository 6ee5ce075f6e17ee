package hosts

import (
	"encoding/json"
	"strconv"
	"strings"
)

// jsonEqual compares two values Map decoded: objects by their members
// whatever the order, arrays element by element, numbers by value.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		return ok && decimalKey(x) == decimalKey(y)
	}
	return a == b // strings, booleans, null
}

// decimalKey spells a JSON number's exact value one way: its significant
// digits and a power of ten ("7e-1" for 0.7, 0.70 and 7e-1; "0" for any
// zero). It works on the text, so no value is rounded; a number whose
// exponent does not fit in 62 bits is its own key, as written (a key that
// equals it is in this same normal form, so no two values share a key),
// which keeps the cost linear in the text.
func decimalKey(n json.Number) string {
	s := string(n) // valid JSON number syntax: Map's decoder checked it
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	var exp int64
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.ParseInt(strings.TrimPrefix(s[i+1:], "+"), 10, 64)
		if err != nil || e > 1<<62 || e < -1<<62 {
			return string(n)
		}
		exp, s = e, s[:i]
	}
	digits := s
	if i := strings.IndexByte(s, '.'); i >= 0 {
		digits = s[:i] + s[i+1:]
		exp -= int64(len(s) - i - 1)
	}
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return "0" // -0 too
	}
	trimmed := strings.TrimRight(digits, "0")
	exp += int64(len(digits) - len(trimmed))
	return sign + trimmed + "e" + strconv.FormatInt(exp, 10)
}
