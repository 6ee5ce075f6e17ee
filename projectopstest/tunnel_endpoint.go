package projectopstest

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// sameTunnelURL reports whether a record's old URL and a tunnel's new one
// name the same endpoint, so that the grant leaves previousUrl out. The
// service compares WHATWG URL origin and pathname only (tunnels.ts,
// sameEndpoint): a rotated ?k= secret, any other query, a fragment or
// userinfo make no difference, nor does a scheme's default port written
// out. Text that is not an absolute http(s) URL is compared as it is, as
// the service compares a URL it cannot parse.
func sameTunnelURL(a, b string) bool {
	ka, okA := endpointKey(a)
	kb, okB := endpointKey(b)
	if !okA || !okB {
		return a == b
	}
	return ka == kb
}

// endpointKey is u's origin and pathname as a WHATWG URL serialises them:
// scheme and host in lower case, the port without the scheme's default,
// the path as written (neither decoded nor stripped of a trailing slash),
// "/" when empty, with dot segments resolved and the bytes WHATWG escapes
// in a path escaped. The grant is always http(s): a URL of another scheme
// (an opaque origin for WHATWG) is never its endpoint.
func endpointKey(u string) (string, bool) {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return "", false
	}
	scheme := strings.ToLower(p.Scheme)
	var defaultPort int
	switch scheme {
	case "http":
		defaultPort = 80
	case "https":
		defaultPort = 443
	default:
		return "", false
	}
	host := strings.ToLower(p.Hostname())
	if strings.Contains(host, ":") { // an IPv6 literal
		host = "[" + host + "]"
	}
	if p.Port() != "" {
		n, err := strconv.Atoi(p.Port()) // "080" is port 80
		if err != nil || n > 65535 {
			return "", false
		}
		if n != defaultPort {
			host += ":" + strconv.Itoa(n)
		}
	}
	path := p.RawPath // the path as written, when it is not Go's own escaping
	if path == "" {
		path = p.EscapedPath()
	}
	if path == "" {
		path = "/"
	}
	return scheme + "://" + host + edge.ResolveDots(escapePathBytes(path)), true
}

// escapePathBytes escapes what WHATWG's path percent-encode set holds
// (controls, space, '"', '<', '>', '`', '{', '}' and non-ASCII bytes), so
// a path written with them raw names the same endpoint as one escaped.
func escapePathBytes(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"<>`{}", c) >= 0 {
			b.WriteString("%" + string(hex[c>>4]) + string(hex[c&15]))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
