package projectopstest

import (
	"net/http"
	"net/url"
	"testing"
)

// afterSlug takes the target as written, in origin or absolute form, or
// r.URL's when the target is not the one r.URL was read from.
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
		u, err := url.ParseRequestURI(tc.target) // as net/http's server reads it
		if err != nil {
			t.Fatal(err)
		}
		if got := afterSlug(&http.Request{RequestURI: tc.target, URL: u}); got != tc.want {
			t.Errorf("afterSlug(%q) = %q, want %q", tc.target, got, tc.want)
		}
	}
	u, _ := url.Parse("/tunnels/s/api/a%2Fb?k=x")
	for _, target := range []string{"", "/tunnels/s/api/other?k=x"} {
		if got := afterSlug(&http.Request{RequestURI: target, URL: u}); got != "/api/a%2Fb?k=x" {
			t.Errorf("a target %q that is not r.URL's: %q, want r.URL's", target, got)
		}
	}
}
