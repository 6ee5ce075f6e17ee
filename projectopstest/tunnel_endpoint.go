package projectopstest

import (
	"strconv"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// sameTunnelURL reports whether a record's old URL and a tunnel's new one
// name the same endpoint, so that the grant leaves previousUrl out. The
// service compares WHATWG URL origin and pathname only (tunnels.ts,
// sameEndpoint): a rotated ?k= secret, any other query, a fragment or
// userinfo make no difference, nor does a scheme's default port written
// out, nor another spelling of the same IP address. When either side is
// not an http(s) URL endpointKey can read, the two are compared as text,
// as the service compares a URL it cannot parse.
//
// WHATWG parses other schemes too (ws:, wss: and ftp: with an origin of
// their own, any other with the opaque origin "null"), which endpointKey
// does not: such a URL is compared as text here where the service would
// compare origins and paths. Only a record's old URL can have such a
// scheme; the grant's is always http(s), which no other scheme's origin
// equals, so the answer is the service's either way.
func sameTunnelURL(a, b string) bool {
	ka, okA := endpointKey(a)
	kb, okB := endpointKey(b)
	if !okA || !okB {
		return a == b
	}
	return ka == kb
}

// endpointKey is u's origin and pathname as a WHATWG URL serialises them,
// for an absolute http or https URL: the scheme in lower case; the host
// percent-decoded and in lower case, an IP address in WHATWG's canonical
// form; the port without the scheme's default; the path as written
// (neither decoded nor stripped of a trailing slash), "/" when empty, with
// dot segments resolved and the bytes WHATWG escapes in a path escaped.
// As WHATWG does, it first trims leading and trailing controls and spaces,
// drops tabs and newlines, reads a backslash as a slash and takes any
// number of slashes after the scheme. It reports false for any other
// scheme and where WHATWG's host or port parser fails: a port not all
// digits or over 65535, a forbidden host code point, a zoned IPv6
// literal, an out-of-range IPv4 number.
//
// One divergence: an internationalised host is lower-cased but not put in
// its punycode (xn--) form, nor mapped by the rest of UTS #46, as WHATWG
// does; bücher.example and xn--bcher-kva.example are one origin to the
// service and two here.
func endpointKey(u string) (string, bool) {
	u = strings.Trim(u, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\v\f\r\x0e\x0f"+
		"\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
	u = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(u)
	u, _, _ = strings.Cut(u, "#")
	colon := strings.IndexByte(u, ':')
	if colon < 0 {
		return "", false
	}
	scheme := strings.ToLower(u[:colon])
	var defaultPort int
	switch scheme {
	case "http":
		defaultPort = 80
	case "https":
		defaultPort = 443
	default:
		return "", false
	}
	rest, _, _ := strings.Cut(u[colon+1:], "?")
	rest = strings.ReplaceAll(strings.TrimLeft(rest, `/\`), `\`, "/")
	authority, path, _ := strings.Cut(rest, "/")
	path = "/" + path
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		authority = authority[i+1:]
	}
	hostText, portText := authority, ""
	if i := strings.LastIndexByte(authority, ':'); i >= 0 && !strings.Contains(authority[i:], "]") {
		hostText, portText = authority[:i], authority[i+1:]
	}
	host, ok := whatwgHost(hostText)
	if !ok {
		return "", false
	}
	if portText != "" {
		if strings.Trim(portText, "0123456789") != "" {
			return "", false
		}
		n, err := strconv.Atoi(portText) // "080" is port 80
		if err != nil || n > 65535 {
			return "", false
		}
		if n != defaultPort {
			host += ":" + strconv.Itoa(n)
		}
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
