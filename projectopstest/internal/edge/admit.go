package edge

import (
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/projectops/projectops-go/shared"
)

// MaxAuthorizationBytes caps the Authorization header: a bearer sk_ key is
// far shorter, and anything larger is refused before it is looked at.
const MaxAuthorizationBytes = 8 << 10

// Admit answers, in the {code, message, details} envelope, the requests no
// route should see, before the router does: an oversized Authorization
// header, a path that is not clean (an empty segment or a trailing slash,
// which the router would answer with an HTML redirect, once dot segments
// are resolved: ResolveDots), a path with control characters or
// invalid UTF-8, and a query string with bad escapes (which would
// otherwise be dropped silently, so ?cursor=%zz read page one). It reports
// whether the request may go on to the router. Its messages show the path
// as shown, which hides credentials a path may hold.
//
// checkQuery is false for a tunnel's public URL: its query goes to the
// tunnel's host as the caller wrote it (the service's edge parses only its
// k), semicolons and odd escapes included.
func Admit(w http.ResponseWriter, r *http.Request, shown string, checkQuery bool) bool {
	var herr *Error
	switch p := r.URL.Path; {
	case headerBytes(r.Header.Values("Authorization")) > MaxAuthorizationBytes:
		herr = NewError(shared.CodeUnauthorized, "Authorization header is too large",
			map[string]any{"limit": MaxAuthorizationBytes})
	case !utf8.ValidString(p) || strings.ContainsFunc(p, func(c rune) bool { return c < 0x20 || c == 0x7f }):
		herr = Validation("", "Invalid request path")
	case !cleanPath(r.URL.EscapedPath()): // as the router sees segments: "..%2F" is not ".."
		herr = NotFound("No route for " + r.Method + " " + strconv.Quote(shown) + ": the path is not clean")
	case checkQuery:
		if err := queryError(r.URL.RawQuery); err != nil {
			herr = Validation("", "Invalid query string: "+queryErr(err))
		}
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

// queryErr describes a query parse error without echoing the query, which
// may hold a secret (a tunnel's ?k=).
// queryError is url.ParseQuery's error for q without building its map: a
// single parameter without a semicolon or a percent sign (a tunnel URL's
// ?k=, most queries) cannot fail, anything else is parsed.
func queryError(q string) error {
	if !strings.ContainsAny(q, "&;%") {
		return nil
	}
	_, err := url.ParseQuery(q)
	return err
}

func queryErr(err error) string {
	if strings.Contains(err.Error(), "escape") {
		return "bad percent-escape"
	}
	return "malformed"
}
