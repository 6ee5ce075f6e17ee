package mcpops

import (
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
)

// A refresh sends the import's client credentials and the refresh token to
// URLs a caller named (authorizationServerUrl, the token endpoint its
// metadata names), so the double holds those requests to go-sdk's
// discovery rules: no redirect leaves the first request's origin (net/http
// would follow ten, to any host and from https to http, and re-post a
// 307/308 form with the refresh token), and plain http only where nothing
// travels over a network.

// maxOAuthRedirects is how many redirects, all within one origin, a
// metadata fetch or token request follows.
const maxOAuthRedirects = 3

// InProcessHost is the host of the URL the double lists for an in-process
// MCP server (projectopstest.InProcessServerURL): a request there never
// leaves the process, so plain http is allowed to it as to loopback.
const InProcessHost = "inprocess.invalid"

// secureURL reports whether u is an absolute URL a refresh may use: https,
// or http on a loopback or the in-process host.
func secureURL(u *url.URL) bool {
	if u.Host == "" {
		return false
	}
	switch u.Scheme {
	case "https":
		return true
	case "http":
		h := u.Hostname()
		if strings.EqualFold(h, "localhost") || strings.EqualFold(h, InProcessHost) {
			return true
		}
		ip := net.ParseIP(h)
		return ip != nil && ip.IsLoopback()
	}
	return false
}

// originBound returns a copy of c (c is left as it is: MCP connections
// keep their own policy) that follows at most maxOAuthRedirects redirects,
// each within the first request's origin (scheme, host and port). A
// redirect it does not follow comes back as the 3xx answer itself, which
// names no metadata and no token: the grant cannot be refreshed there. A
// CheckRedirect of c's still runs after these rules.
func originBound(c *http.Client) *http.Client {
	cc := *c
	user := c.CheckRedirect
	cc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > maxOAuthRedirects || !sameOrigin(via[0].URL, req.URL) {
			return http.ErrUseLastResponse
		}
		if user != nil {
			return user(req, via)
		}
		return nil
	}
	return &cc
}

// sameOrigin compares scheme, host and port, the default port made
// explicit (mcpconn.URLOrigin).
func sameOrigin(a, b *url.URL) bool {
	return mcpconn.URLOrigin(a) == mcpconn.URLOrigin(b)
}
