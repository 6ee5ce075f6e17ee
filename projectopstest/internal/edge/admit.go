package edge

import (
	"net/http"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/projectops/projectops-go/shared"
)

// MaxAuthorizationBytes caps the Authorization header: a bearer sk_ key is
// far shorter, and anything larger is refused before it is looked at.
const MaxAuthorizationBytes = 8 << 10

// AdmitAuthorization refuses, in the {code, message, details} envelope, a
// request whose Authorization header is over MaxAuthorizationBytes, before
// the router sees it. It reports whether the request may go on. A surface
// that decides on a header's prefix alone (the key-management one) skips
// it: it answers whatever follows the prefix.
func AdmitAuthorization(w http.ResponseWriter, r *http.Request) bool {
	if headerBytes(r.Header.Values("Authorization")) <= MaxAuthorizationBytes {
		return true
	}
	WriteError(w, NewError(shared.CodeUnauthorized, "Authorization header is too large",
		map[string]any{"limit": MaxAuthorizationBytes}))
	return false
}

// Admit answers, in the {code, message, details} envelope, the requests
// whose path no route should see, before the router does: a path that is
// not clean once its dot segments are resolved (ResolveDots): an empty
// segment ("//"), which the router would answer with an HTML redirect; a
// request target with a raw '#' in its path (HasFragment); and a path with
// control characters or invalid UTF-8. It reports whether the request may
// go on to the router. Its messages show the path as shown, which hides
// credentials a path may hold. The query is not looked at: as the
// service's routes, each route reads the parameters it names (Query),
// whatever else the query holds.
func Admit(w http.ResponseWriter, r *http.Request, shown string) bool {
	var herr *Error
	switch p := r.URL.Path; {
	case !utf8.ValidString(p) || strings.ContainsFunc(p, func(c rune) bool { return c < 0x20 || c == 0x7f }):
		herr = Validation("", "Invalid request path")
	case HasFragment(r.RequestURI): // no route of the service matches it; the double relays no fragment
		herr = NotFound("No route for " + r.Method + " " + strconv.Quote(shown) + ": the path holds a raw '#'")
	case !cleanPath(r.URL.EscapedPath()): // as the router sees segments: "..%2F" is not ".."
		herr = NotFound("No route for " + r.Method + " " + strconv.Quote(shown) + ": the path is not clean")
	}
	if herr != nil {
		WriteError(w, herr)
		return false
	}
	return true
}

// cleanPath reports whether p is already in canonical form: no empty,
// "." or ".." segments (a trailing slash is kept; no route has one, so it
// reads as 404). Dot segments are resolved before Admit runs, so what it
// refuses is an empty segment ("//"), as the service's router does.
func cleanPath(p string) bool {
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c == p
}

// headerBytes is the size of a header's values.
func headerBytes(vs []string) int {
	n := 0
	for i, v := range vs {
		if i > 0 {
			n += len(", ") // repeated headers reach the gateway joined
		}
		n += len(v)
	}
	return n
}
