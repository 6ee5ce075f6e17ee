package projectopstest

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// resolvingDots serves next with each request's path resolved
// (edge.ResolveDots), as the service's server resolves it before any of its
// middleware or routes run: GET /api/v1/projects/x/../../me is
// GET /api/v1/me, and a raw backslash is a slash. Every layer below, the
// contract check, the request log, the router and the tunnel edge, sees
// the resolved path, except in a head over the cap, answered 431 as sent.
func resolvingDots(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, resolveDots(r))
	})
}

// resolveDots is r with its path resolved: r itself when it has nothing to
// resolve, else a shallow copy with a URL and request target of its own.
// It resolves the target as the caller wrote it, so the escapes and raw
// bytes of the segments that stay are kept (the tunnel edge relays them).
// A target with a raw '#' in its path is left as it is: nothing after the
// '#' is resolved, and edge.Admit refuses it.
func resolveDots(r *http.Request) *http.Request {
	if p, _, _ := strings.Cut(r.RequestURI, "?"); !mayResolve(p) && !mayResolve(r.URL.Path) {
		return r // nearly every request: no unescaping, no allocation
	}
	if headTooLarge(r) { // measured as sent, as Node does: serveHTTP's 431 sees the raw target
		return r
	}
	target := requestTarget(r)
	p, q, hasQuery := strings.Cut(target, "?")
	if strings.IndexByte(p, '#') >= 0 {
		return r
	}
	resolved := edge.ResolveDots(p)
	if resolved == p {
		return r
	}
	decoded, err := url.PathUnescape(resolved)
	if err != nil { // cannot be: the whole target decoded when it was read
		return r
	}
	r2 := r.WithContext(r.Context())
	u := *r.URL
	// RawPath is kept only when it is a valid escaping of Path (as
	// url.URL's own parsing keeps it); EscapedPath checks that.
	u.Path, u.RawPath = decoded, resolved
	r2.URL = &u
	r2.RequestURI = resolved
	if hasQuery {
		r2.RequestURI += "?" + q
	}
	return r2
}

// requestTarget is the request target as the caller wrote it
// (r.RequestURI, its path's raw bytes and escapes kept, in origin form),
// when it is the one r.URL was read from: its path decodes to r.URL.Path
// and its query is r.URL's. Otherwise (a request made in process, whose
// Opaque may hold a '?') it is r.URL's, which the router sees.
func requestTarget(r *http.Request) string {
	t := r.RequestURI
	if t != "" && t[0] != '/' { // absolute form: scheme://authority/path?query
		if _, rest, ok := strings.Cut(t, "://"); ok {
			t = ""
			if i := strings.IndexAny(rest, "/?"); i >= 0 {
				t = rest[i:]
			}
		}
	}
	p, q, _ := strings.Cut(t, "?")
	if d, err := url.PathUnescape(p); err != nil || d != r.URL.Path || q != r.URL.RawQuery { // no copy unless p has escapes
		return r.URL.RequestURI()
	}
	return t
}

// mayResolve reports, without allocating, whether p, the path of a request
// target or a decoded path, may hold something resolveDots resolves or
// leaves for edge.Admit to refuse: a dot segment (also escaped), a raw
// backslash or a raw '#'. It errs on yes ("/.well-known", a decoded "%5C")
// and resolveDots looks closer. A decoded path holds every dot segment of
// its escaped form, so checking both covers a target r.URL was not read
// from.
func mayResolve(p string) bool {
	return strings.ContainsAny(p, `\#`) || strings.Contains(p, "/.") ||
		strings.Contains(p, "/%2e") || strings.Contains(p, "/%2E")
}
