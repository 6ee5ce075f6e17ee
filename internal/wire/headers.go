package wire

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
