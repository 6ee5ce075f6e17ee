package mcpconn

import "testing"

// The service tests url.pathname.endsWith("/sse"): the WHATWG pathname
// keeps percent-escapes as written (upper or lower case), where Go's
// URL.Path is decoded. So a last segment that merely contains an escaped
// slash ("/a%2Fsse") or an escaped letter ("/%73se") is not an SSE
// endpoint there, and the double makes the Streamable HTTP attempt first
// as the service does. Every want below is what Node's URL answers.
func TestPreferSSEMatchesServicePathname(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		url  string
		want bool
	}{
		{"http://h/tenant%2Fsse", false},
		{"http://h/mcp%2fsse", false},
		{"http://h/%73se", false},
		{"http://h/a/%73se", false},
		{"http://h/sse", true},
		{"http://h/a/sse?x=1#f", true},
		{"http://h/a%20b/sse", true},
		{"http://h/mcp?p=/sse", false},
		{"http://h/a/sse/", false},
		{"http://h/a/SSE", false},
	} {
		if got := preferSSE(c.url); got != c.want {
			t.Errorf("preferSSE(%q) = %v, want %v (the service's pathname test)", c.url, got, c.want)
		}
	}
}
