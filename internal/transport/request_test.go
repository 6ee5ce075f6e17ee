package transport

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// TestNewRequestAsParsed checks that a request built on the parsed base URL
// has exactly the URL and Host that parsing the whole target gives, and that
// targets it cannot build that way are parsed.
func TestNewRequestAsParsed(t *testing.T) {
	bases := []string{
		"http://127.0.0.1:8080/api/v1", "https://api.example.com/api/v1", "http://h:/api/v1",
		"https://user:pw@h.example/api/v1", "http://[::1]:80/x", "https://h.example",
		"http://h/a%2Fb", "http://h/a;b", "HTTP://H.example/v1", "http://h/p?q=1", "http://h/p#f", "unix:///x",
	}
	paths := []string{"/projects", "/projects/p_1/hosts/h_2", "/a?b=c&d=%20", "/a?", "/x%2Fy", "/a b",
		"/a#b", "/%zz", "", "?q=1", "/é", "/a;b,c", "/a/../b", "//evil.example/x", "/a?b=%zz&c=d e",
		"/a?x=\x01", "/a\x7f", "/a?é=1", "/a?b#c", "/a??b", "/a!*'()", "/p?cursor=abc%3D%3D&limit=5"}
	for _, base := range bases {
		tr := New(Config{BaseURL: base})
		for _, p := range paths {
			target := tr.base + p
			want, werr := http.NewRequestWithContext(t.Context(), http.MethodGet, target, nil)
			got, gerr := tr.newRequest(t.Context(), http.MethodGet, target, nil)
			if (werr != nil) != (gerr != nil) {
				t.Errorf("%s: err %v, want %v", target, gerr, werr)
				continue
			}
			if werr != nil {
				continue
			}
			if !reflect.DeepEqual(got.URL, want.URL) || got.Host != want.Host || got.URL.String() != want.URL.String() {
				t.Errorf("%s:\n got %#v host %q\nwant %#v host %q", target, got.URL, got.Host, want.URL, want.Host)
			}
		}
	}
	// The fast path is taken for a plain base and path (the case it is for).
	tr := New(Config{BaseURL: "http://127.0.0.1:8080/api/v1/"})
	if tr.baseURL == nil || !strings.HasSuffix(tr.base, tr.baseURL.Path) {
		t.Fatalf("base not parsed once: %v", tr.baseURL)
	}
	if !asWritten("/projects/prj_1/hosts/host-2.x~y", pathByte) || !asWritten("cursor=a%3D&limit=5", queryByte) {
		t.Error("a plain path or query is not taken as written")
	}
}
