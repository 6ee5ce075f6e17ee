package projectopstest

import (
	"net/http"
	"net/url"
)

// inProcessHost is the host of InProcessURL: tunnel URLs minted through the
// in-process transport live there.
var inProcessHost = func() string { u, _ := url.Parse(InProcessURL); return u.Host }()

// selfTransport sends requests to the double's own handler in process.
// s.transport is read at request time: it is set after the MCP layer is.
type selfTransport struct{ s *Server }

// RoundTrip implements http.RoundTripper.
func (t selfTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return t.s.transport.RoundTrip(r)
}

// routeSelf returns a client like c that reaches URLs on the in-process
// host through self, so a saved server whose url is one of the double's own
// tunnel URLs works in process, without a socket. c is never mutated.
func routeSelf(c *http.Client, self http.RoundTripper) *http.Client {
	if self == nil {
		return c
	}
	out := *c
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	out.Transport = &hostRouter{host: inProcessHost, self: self, next: next}
	return &out
}

// hostRouter sends requests for host to self and the rest to next.
type hostRouter struct {
	host       string
	self, next http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (h *hostRouter) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host == h.host {
		return h.self.RoundTrip(r)
	}
	return h.next.RoundTrip(r)
}
