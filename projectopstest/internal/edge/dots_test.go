package edge

import "testing"

// TestResolveDotsAsWHATWG: each path resolves to the pathname a WHATWG URL
// parser gives it in an http URL (the pairs were read from Node's new URL),
// a raw backslash read as a slash.
func TestResolveDotsAsWHATWG(t *testing.T) {
	t.Parallel()
	for _, c := range [][2]string{
		{"/api/v1/./me", "/api/v1/me"},
		{"/api/v1/projects/x/../../me", "/api/v1/me"},
		{"/api/v1/projects/%2e%2e/me", "/api/v1/me"},
		{"/a/b/..", "/a/"},
		{"/a/b/.", "/a/b/"},
		{"/..", "/"},
		{"/../..", "/"},
		{"/.", "/"},
		{"/a/%2E", "/a/"},
		{"/a/.%2e/b", "/b"},
		{"/a/%2e./b", "/b"},
		{"/a/%2E%2e", "/"},
		{"/a//b", "/a//b"},
		{"/a//../b", "/a/b"},
		{"/a/b/../../../c", "/c"},
		{"/a/..b/c", "/a/..b/c"},
		{"/a/...", "/a/..."},
		{"/a/.../b", "/a/.../b"},
		{"/a/%2ex", "/a/%2ex"},
		{"/a/x%2e", "/a/x%2e"},
		{"/a/b/..%2f", "/a/b/..%2f"},
		{"/a/%2e%2F", "/a/%2e%2F"},
		{"/a/./", "/a/"},
		{"/a/../", "/"},
		{"/", "/"},
		{"/a/b%2F..%2Fc", "/a/b%2F..%2Fc"},
		{"/tunnels/s/api/mcp/adapter-http/srv_1/../../x", "/tunnels/s/api/mcp/x"},
		{"/a/%252e%252e/b", "/a/%252e%252e/b"},
		{"/a;b/..;x/c", "/a;b/..;x/c"},
		{"/a/.;x", "/a/.;x"},
		{"/a/%2e/%2e/b", "/a/b"},
		{"/a/b/./../c/", "/a/c/"},
		{"/a/.\xc3\xa9", "/a/.\xc3\xa9"}, // a raw byte: kept as it is (WHATWG escapes it; either decodes alike)
		{`/a\b`, "/a/b"},
		{`/a\`, "/a/"},
		{`/a/..\b`, "/b"},
		{`/a\b\..\..\c`, "/c"},
		{`/a/b/.%2e\%2E.\c`, "/c"},
		{`/a/.\`, "/a/"},
		{`/a\\b`, "/a//b"},
		{"/a%5C..%5Cb", "/a%5C..%5Cb"}, // an escaped backslash is not a slash
		{"/a/%5c../b", "/a/%5c../b"},
	} {
		if got := ResolveDots(c[0]); got != c[1] {
			t.Errorf("ResolveDots(%q) = %q, want %q", c[0], got, c[1])
		}
		if got, want := NeedsResolving(c[0]), ResolveDots(c[0]) != c[0]; got != want {
			t.Errorf("NeedsResolving(%q) = %v, want %v", c[0], got, want)
		}
	}
}

// TestResolveDotsCleanPathDoesNotAllocate: the path of nearly every
// request has no dot segment and costs no allocation.
func TestResolveDotsCleanPathDoesNotAllocate(t *testing.T) {
	p := "/api/v1/projects/prj_1/servers/srv_1/.well-known"
	if n := testing.AllocsPerRun(100, func() { _ = ResolveDots(p) }); n != 0 {
		t.Errorf("ResolveDots(%q) allocates %v times", p, n)
	}
}

// TestHasFragment: only a raw '#' before the query starts a fragment the
// service's routes would read as part of the path; one in the query is
// the query's, and an escaped %23 is an ordinary character.
func TestHasFragment(t *testing.T) {
	t.Parallel()
	for target, want := range map[string]bool{
		"/api/v1/me#x":           true,
		"/api/v1/me#x?k=1":       true,
		"http://h/api/v1/me#x":   true,
		"/api/v1/me?x=1#y":       false,
		"/api/v1/me%23x":         false,
		"/api/v1/me":             false,
		"":                       false,
		"/tunnels/s/a#/../b?k=1": true,
	} {
		if got := HasFragment(target); got != want {
			t.Errorf("HasFragment(%q) = %v, want %v", target, got, want)
		}
	}
}
