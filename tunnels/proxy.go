package tunnels

import (
	"errors"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
)

// PublicPath is the path relayed requests carry when they arrive at the
// grant's URL: the handler given to Serve sees "/mcp" (plus any sub-path
// the caller appended).
const PublicPath = "/mcp"

// ProxyTo returns a handler that forwards relayed requests to a local
// server at target (for example http://127.0.0.1:3000/mcp): PublicPath
// maps to target's path, a sub-path of it to the same sub-path of target's,
// and the query is kept. Responses are flushed as they arrive, so SSE and
// MCP's streamable HTTP work. An unreachable target answers 502.
func ProxyTo(target *url.URL) (http.Handler, error) {
	if target == nil || (target.Scheme != "http" && target.Scheme != "https") || target.Host == "" {
		return nil, errors.New("tunnels: ProxyTo needs an absolute http or https URL")
	}
	t := *target
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			rest := pr.In.URL.Path // not under PublicPath: relayed as is
			if rest == PublicPath || strings.HasPrefix(rest, PublicPath+"/") {
				rest = rest[len(PublicPath):]
			}
			out := pr.Out.URL
			out.Scheme, out.Host, out.User = t.Scheme, t.Host, t.User
			out.Path = strings.TrimSuffix(t.Path, "/") + rest
			if out.Path == "" {
				out.Path = "/"
			}
			out.RawPath = ""
			out.RawQuery = mergeQuery(t.RawQuery, pr.In.URL.RawQuery)
			pr.Out.Host = t.Host
		},
		FlushInterval: -1, // flush after every write: streaming responses
	}, nil
}

func mergeQuery(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "&" + b
}
