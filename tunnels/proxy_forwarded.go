package tunnels

import (
	"context"
	"net/http/httputil"
	"net/url"
)

// forwarded are the headers ReverseProxy's Rewrite drops that ProxyTo puts
// back as received: the edge sets both (the public host, the caller's
// address), so they are its word, not the caller's.
var forwarded = []string{"X-Forwarded-For", "X-Forwarded-Host"}

// publicSchemeKey keys the scheme of the public URL of the tunnel a
// request came through, which Serve puts in every request's context.
type publicSchemeKey struct{}

// withPublicScheme is ctx carrying the scheme of g's public URL, when it
// is http or https.
func withPublicScheme(ctx context.Context, g *Grant) context.Context {
	u, err := url.Parse(g.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ctx
	}
	return context.WithValue(ctx, publicSchemeKey{}, u.Scheme)
}

// setForwarded passes the edge's X-Forwarded-For and -Host on as received
// and sets X-Forwarded-Proto to the public URL's scheme when Serve told
// it. Forwarded, and an X-Forwarded-Proto of the caller's, which the edge
// does not set, stay dropped: a local server that trusts its loopback
// proxy would take them for the tunnel's word (for=127.0.0.1).
func setForwarded(pr *httputil.ProxyRequest) {
	for _, k := range forwarded {
		if v, ok := pr.In.Header[k]; ok {
			pr.Out.Header[k] = v
		}
	}
	if scheme, ok := pr.In.Context().Value(publicSchemeKey{}).(string); ok {
		pr.Out.Header.Set("X-Forwarded-Proto", scheme)
	}
}
