package transport

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// parseBase parses the base URL once, as http.NewRequest does, for
// newRequest; it returns nil (every call then parses its own URL) unless
// the base is a plain http(s) URL whose path reads as written.
func parseBase(base string) (*url.URL, string) {
	r, err := http.NewRequest(http.MethodGet, base, nil)
	if err != nil {
		return nil, ""
	}
	u := r.URL // its Host without an empty port, as net/http makes it
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" || u.RawPath != "" ||
		u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.OmitHost ||
		!strings.HasSuffix(base, u.Path) || strings.ContainsAny(base, "%#?") {
		return nil, ""
	}
	return u, r.Host
}

// newRequest is http.NewRequestWithContext for target, without parsing the
// URL when target is the base URL followed by a path and query that read as
// written (no escapes): the base's parsed form with that path is what
// url.Parse would return, and parsing was a twentieth of an in-process call.
func (t *Transport) newRequest(ctx context.Context, method, target string, body io.Reader) (*http.Request, error) {
	rest, ok := strings.CutPrefix(target, t.base)
	path, query, hasQuery := strings.Cut(rest, "?")
	if t.baseURL == nil || !ok || !strings.HasPrefix(path, "/") || !asWritten(path, pathByte) || !asWritten(query, queryByte) {
		return http.NewRequestWithContext(ctx, method, target, body)
	}
	hr, err := http.NewRequestWithContext(ctx, method, "/", body)
	if err != nil {
		return nil, err
	}
	u := hr.URL // parsed from "/": reused rather than allocating another
	*u = *t.baseURL
	// The base's path and the call's are contiguous in target.
	u.Path = target[len(t.base)-len(t.baseURL.Path) : len(t.base)+len(path)]
	u.RawQuery, u.ForceQuery = query, hasQuery && query == ""
	hr.Host = t.baseHost
	return hr, nil
}

// asWritten reports whether every byte of s is one ok allows.
func asWritten(s string, ok func(c byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

// pathByte is a byte url.Parse keeps as it is in a path: unescaped and left
// unescaped by URL.EscapedPath, so the URL has no RawPath.
func pathByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-_.~$&+,/:;=@", c) >= 0
}

// queryByte is a byte url.Parse accepts in a query, which it keeps raw.
func queryByte(c byte) bool { return c > 0x20 && c < 0x7f && c != '#' }
