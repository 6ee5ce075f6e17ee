package projectopstest

import (
	"net/http"
	"net/url"
	"testing"
)

// TestResolveDotsCleanEscapedPathDoesNotAllocate: a request with an
// escape but nothing to resolve (a tunnel URL with an escaped server id,
// say) is passed on as it is without unescaping its target again; the
// in-process transport asks twice per request (Streams, then the handler).
func TestResolveDotsCleanEscapedPathDoesNotAllocate(t *testing.T) {
	const target = "/tunnels/abc/api/mcp/adapter-http/srv%201/mcp?k=x"
	u, err := url.ParseRequestURI(target)
	if err != nil {
		t.Fatal(err)
	}
	r := &http.Request{Method: "GET", URL: u, RequestURI: target}
	if n := testing.AllocsPerRun(100, func() { _ = resolveDots(r) }); n != 0 {
		t.Errorf("resolveDots(%q) allocates %v times", target, n)
	}
	if got := resolveDots(r); got != r {
		t.Errorf("resolveDots(%q) copied the request", target)
	}
}
