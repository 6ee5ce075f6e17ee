package tunnels

import (
	"context"
	"net/http"
	"net/url"
	"testing"
)

// A relayed request's URL reads as url.ParseRequestURI reads its
// origin-form target, whichever way newServerRequest builds it.
func TestNewServerRequestReadsAsParseRequestURI(t *testing.T) {
	t.Parallel()
	for _, uri := range []string{
		"/", "/mcp", "/mcp?x=1&k=2", "/a%20b/c?q=%2F", "//x/mcp", "///mcp", "/mcp#frag", "/a#b?c",
		"/%2e%2e/x", "/a:b", "/mcp?", "/caf%C3%A9", "*",
	} {
		want, werr := url.ParseRequestURI(uri)
		req, err := newServerRequest(context.Background(), http.MethodPost, uri, http.NoBody)
		if (err != nil) != (werr != nil) {
			t.Errorf("%q: err %v, ParseRequestURI's %v", uri, err, werr)
			continue
		}
		if err != nil {
			continue
		}
		got, w := *req.URL, *want
		if got.User.String() != w.User.String() {
			t.Errorf("%q: userinfo %v, want %v", uri, got.User, w.User)
		}
		got.User, w.User = nil, nil // pointers: compared by what they hold above
		if got != w {
			t.Errorf("%q: URL %#v, want %#v", uri, got, w)
		}
	}
	for _, uri := range []string{"/a%zz", "/a\x7f", "/a\nb"} {
		if _, err := newServerRequest(context.Background(), http.MethodGet, uri, nil); err == nil {
			t.Errorf("%q: no error", uri)
		}
	}
}
