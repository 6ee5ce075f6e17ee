package wire

import (
	"maps"
	"net/http"
	"slices"
)

// RedactHeaderValues replaces, in place, every value of a "headers" or
// "headersOverride" object at any depth of decoded JSON: a host config's
// connection headers carry credentials, whatever their names.
func RedactHeaderValues(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if h, ok := e.(map[string]any); ok && (k == "headers" || k == "headersOverride") {
				for name := range h {
					h[name] = "[REDACTED]"
				}
				continue
			}
			RedactHeaderValues(e)
		}
	case []any:
		for _, e := range x {
			RedactHeaderValues(e)
		}
	}
}

// CanonicalHeader returns h with canonical names, as net/http's server
// reads a request: h itself when they already are (nearly always). Names
// that differ only in case are one, their values joined in the order of
// the names sorted.
func CanonicalHeader(h http.Header) http.Header {
	canonical := true
	for k := range h {
		if http.CanonicalHeaderKey(k) != k {
			canonical = false
			break
		}
	}
	if canonical {
		return h
	}
	out := make(http.Header, len(h))
	for _, k := range slices.Sorted(maps.Keys(h)) {
		ck := http.CanonicalHeaderKey(k)
		if prev, dup := out[ck]; dup {
			out[ck] = append(prev[:len(prev):len(prev)], h[k]...)
			continue
		}
		out[ck] = h[k]
	}
	return out
}
