package contract

import "strings"

// Match finds the route serving a concrete request path relative to
// /api/v1 ("/projects/prj_1/hosts/hst_2"), or nil. A literal segment beats
// a parameter, so ".../eval-ingest/report" never reads as a parameter.
func (c *Contract) Match(method, path string) *Route {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	var best *Route
	bestLiterals := -1
	for _, r := range c.routes {
		if r.Method != method {
			continue
		}
		if n, ok := matchSegments(r.segments, segs); ok && n > bestLiterals {
			best, bestLiterals = r, n
		}
	}
	return best
}

// matchSegments reports whether path segments fit a template's, and how
// many literal segments matched.
func matchSegments(tmpl, segs []string) (int, bool) {
	if len(tmpl) != len(segs) {
		return 0, false
	}
	literals := 0
	for i, t := range tmpl {
		if strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") {
			if segs[i] == "" {
				return 0, false
			}
			continue
		}
		if t != segs[i] {
			return 0, false
		}
		literals++
	}
	return literals, true
}
