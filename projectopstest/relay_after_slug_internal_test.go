package projectopstest

import (
	"net/http"
	"net/url"
	"testing"
)

// afterSlug takes the target as written: origin or absolute form, or the
// URL's own when a request was made without a request line.
func TestAfterSlug(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ target, want string }{
		{"/tunnels/s/api/mcp/adapter-http/srv_1/a%2Fb/c\xc3\xa9?k=x&q=%zz", "/api/mcp/adapter-http/srv_1/a%2Fb/c\xc3\xa9?k=x&q=%zz"},
		{"http://h:1/tunnels/s/api/x?k=x", "/api/x?k=x"},
		{"http://h:1?k=x", "?k=x"},
		{"/tunnel%73/s%31/api", "/api"},
		{"/tunnels/s?k=x", "?k=x"},
		{"/tunnels/s", ""},
		{"/tunnels/s/", "/"},
	} {
		r := &http.Request{RequestURI: tc.target}
		if got := afterSlug(r); got != tc.want {
			t.Errorf("afterSlug(%q) = %q, want %q", tc.target, got, tc.want)
		}
	}
	u, _ := url.Parse("/tunnels/s/api/a%2Fb?k=x")
	if got := afterSlug(&http.Request{URL: u}); got != "/api/a%2Fb?k=x" {
		t.Errorf("without a request line: %q", got)
	}
}
