package tunnels

import (
	"context"
	"io"
	"net/http"
	"net/url"
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
	if q := withoutSecret(query); q != "" {
		uri += "?" + q
	}
	return uri, true
}

// withoutSecret is a raw query without its k parameters (however encoded),
// every other part as the caller wrote it.
func withoutSecret(raw string) string {
	if raw == "" || strings.HasPrefix(raw, "k=") && !strings.ContainsAny(raw, "&;") {
		return "" // the secret alone: nearly always
	}
	var kept []string
	for part := range strings.SplitSeq(raw, "&") {
		name, _, _ := strings.Cut(part, "=")
		if part != "" && !wire.IsSecretParam(name) {
			kept = append(kept, part)
		}
	}
	return strings.Join(kept, "&")
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
