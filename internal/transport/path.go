package transport

import (
	"net/url"
	"strings"

	"github.com/projectops/projectops-go/internal/apierr"
)

// BuildPath fills the {name} placeholders of route with params, in order,
// path-escaping each. An empty or missing parameter is a client-side
// VALIDATION_ERROR naming the placeholder, so no request goes to a wrong URL.
func BuildPath(route string, params []string) (string, error) {
	return joinPath("", route, params)
}

// joinPath is base followed by BuildPath's path, in one allocation.
func joinPath(base, route string, params []string) (string, error) {
	if !strings.Contains(route, "{") {
		return base + route, nil
	}
	var b strings.Builder
	b.Grow(len(base) + len(route) + 32)
	b.WriteString(base)
	rest := route
	for i := 0; ; i++ {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			b.WriteString(rest)
			break
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return "", apierr.Invalid("route", "malformed route template "+route)
		}
		name := rest[open+1 : open+end]
		if i >= len(params) || params[i] == "" {
			return "", apierr.Invalid(name, name+" is required")
		}
		if params[i] == "." || params[i] == ".." {
			// PathEscape keeps dots, and a dot segment would be resolved
			// to another route by the server or a proxy.
			return "", apierr.Invalid(name, name+" is not a valid id")
		}
		b.WriteString(rest[:open])
		b.WriteString(url.PathEscape(params[i]))
		rest = rest[open+end+1:]
	}
	return b.String(), nil
}
