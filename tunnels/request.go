package tunnels

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/projectops/projectops-go/internal/wire"
)

// adapterPrefix is the path the edge forwards every request of a tunnel
// under: /api/mcp/adapter-http/{serverId}, then the caller's sub-path.
const adapterPrefix = "/api/mcp/adapter-http/"

// localURI maps the URL the edge forwards (the public path and query as
// the caller sent them, ?k= secret included) to the request line the
// handler sees: PublicPath and the sub-path after the tunnel's prefix,
// the query without k. A URL outside the tunnel's prefix reports false.
func (s *session) localURI(raw string) (string, bool) {
	p, query, _ := strings.Cut(raw, "?")
	rest, ok := strings.CutPrefix(p, adapterPrefix)
	if !ok {
		return "", false
	}
	seg, sub, _ := strings.Cut(rest, "/")
	if id, err := url.PathUnescape(seg); err != nil || id == "" || s.serverID != "" && id != s.serverID {
		return "", false
	}
	uri := PublicPath
	if sub != "" || strings.HasSuffix(rest, "/") {
		uri += "/" + sub
	}
	if q := withoutSecret(query, s.secret); q != "" {
		uri += "?" + q
	}
	return uri, true
}

// withoutSecret is a raw query without the parts that carry the secret,
// every other byte as the caller wrote it (empty parts and a trailing '&'
// or ';' included). An '&'-separated part is dropped when it is k (however
// encoded) or carries the host's secret (see hasSecret). The relay reads
// the secret from k alone, so a caller that repeats it under another name
// (K, %4B, token) is the only one to do so: dropping parts by the secret's
// value catches every such spelling and leaves the handler a parameter of
// its own named K. A host that does not know its secret (secret "") drops
// K by name too. Some servers split a part at ';' too (Go's drops a part
// that has one), so within a part a ';'-separated sub-part is dropped
// when it carries the secret (a=1;K=secret keeps a=1), never for its name
// alone: a=1;k=2 may be one value to the handler. A host that does not
// know its secret drops a k or K sub-part by name instead.
func withoutSecret(raw, secret string) string {
	if raw == "" || strings.HasPrefix(raw, "k=") && !strings.ContainsAny(raw, "&;") {
		return "" // the secret alone: nearly always
	}
	var kept []string
	for part := range strings.SplitSeq(raw, "&") {
		if strings.Contains(part, ";") {
			if part = withoutSecretSubParts(part, secret); part == "" {
				continue // nothing left but the secret
			}
		}
		if keepPart(part, secret) {
			kept = append(kept, part)
		}
	}
	return strings.Join(kept, "&")
}

// withoutSecretSubParts is part without its ';'-separated sub-parts that
// carry the secret (k or K by name when the secret is unknown), the rest,
// empty ones included, joined with ';' again. It is "" when every
// non-empty sub-part was dropped.
func withoutSecretSubParts(part, secret string) string {
	var kept []string
	dropped := false
	for sub := range strings.SplitSeq(part, ";") {
		if secret != "" && hasSecret(sub, secret) || secret == "" && wire.IsShownSecretParam(subName(sub)) {
			dropped = true
			continue
		}
		kept = append(kept, sub)
	}
	if !dropped {
		return part
	}
	if strings.Join(kept, "") == "" {
		return ""
	}
	return strings.Join(kept, ";")
}

// subName is a raw query part's name: what precedes its first '='.
func subName(part string) string {
	name, _, _ := strings.Cut(part, "=")
	return name
}

// keepPart reports an '&'-separated query part that is neither k nor
// carries the secret (nor, when the secret is unknown, is K).
func keepPart(part, secret string) bool {
	name := subName(part)
	switch {
	case wire.IsSecretParam(name), hasSecret(part, secret):
		return false
	case secret == "" && wire.IsShownSecretParam(name):
		return false
	}
	return true
}

// minSecret is the shortest secret matched by value: a shorter one
// (never the service's) would match ordinary text.
const minSecret = 8

// grantSecret is the ?k= secret of a grant's URL, or "" when it has none
// long enough to match by value.
func grantSecret(g *Grant) string {
	u, err := url.Parse(g.URL)
	if err != nil {
		return ""
	}
	if k := u.Query().Get("k"); len(k) >= minSecret {
		return k
	}
	return ""
}

// hasSecret reports whether s carries secret as written or in any
// percent-encoded spelling (decoded up to maxDecodes times, as a lenient
// server would). A string still percent-encoded after that many passes
// is suspect and reported too: decoding it further costs a copy per
// level, quadratic in its length. An empty secret is never found.
func hasSecret(s, secret string) bool {
	if secret == "" {
		return false
	}
	for range maxDecodes {
		if strings.Contains(s, secret) {
			return true
		}
		if !hasEscape(s) {
			return false
		}
		s = lenientUnescape(s)
	}
	return strings.Contains(s, secret) || hasEscape(s)
}

// redactReferer is a Referer without the secret: k's value redacted (also
// in spellings only free text shows, ?k%3D...), then, when the host knows
// its secret, the secret wherever it is written; a Referer that still
// carries it in an encoded spelling keeps only its origin and path, or
// is replaced whole.
func redactReferer(v, secret string) string {
	v = wire.RedactSecretParams(wire.RedactSecretQuery(v))
	if !hasSecret(v, secret) {
		return v
	}
	v = strings.ReplaceAll(v, secret, redacted)
	if !hasSecret(v, secret) {
		return v
	}
	if u, err := url.Parse(v); err == nil {
		u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = "", false, "", ""
		if w := u.String(); !hasSecret(w, secret) {
			return w
		}
	}
	return redacted
}

// newServerRequest is the request for an origin-form uri, its URL as
// url.ParseRequestURI reads it. A path that url.Parse reads alike (it
// starts with one slash and has no '#') is parsed by NewRequest itself,
// saving the URL that parsing another target for it would cost.
func newServerRequest(ctx context.Context, method, uri string, body io.Reader) (*http.Request, error) {
	if len(uri) > 0 && uri[0] == '/' && (len(uri) == 1 || uri[1] != '/') && !strings.Contains(uri, "#") {
		return http.NewRequestWithContext(ctx, method, uri, body)
	}
	u, err := url.ParseRequestURI(uri)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, "/", body)
	if err != nil {
		return nil, err
	}
	req.URL = u
	return req, nil
}

// setHostAndLength fills in r's Host and body length from its relayed
// header as net/http's server does, so a handler written for it looks in
// the same places: Host moves to r.Host (the edge's X-Forwarded-Host, the
// public host, wins), Transfer-Encoding to r.TransferEncoding (a chunked
// body's length is unknown, whatever a Content-Length says). Neither stays
// in r.Header; the other hop-by-hop headers do, as there. It reports false
// for a Transfer-Encoding other than plain chunked, which net/http's
// server answers 501 Not Implemented.
func setHostAndLength(r *http.Request, hasBody bool) bool {
	if h, ok := r.Header["Host"]; ok {
		if len(h) > 0 {
			r.Host = h[0]
		}
		delete(r.Header, "Host")
	}
	if fh := r.Header.Get("X-Forwarded-Host"); fh != "" {
		r.Host = fh
	}
	te, hasTE := r.Header["Transfer-Encoding"]
	if hasTE {
		if len(te) != 1 || !strings.EqualFold(strings.TrimSpace(te[0]), "chunked") {
			return false
		}
		delete(r.Header, "Transfer-Encoding")
	}
	switch {
	case !hasBody:
		r.ContentLength, r.Body = 0, http.NoBody
	case hasTE:
		r.TransferEncoding, r.ContentLength = []string{"chunked"}, -1
		delete(r.Header, "Content-Length")
	default:
		r.ContentLength = -1
		if n, err := strconv.ParseInt(r.Header.Get("Content-Length"), 10, 64); err == nil && n >= 0 {
			r.ContentLength = n
		}
	}
	return true
}
