package wire

import "net/http"

// InProcess is implemented by a RoundTripper that serves requests in the
// caller's process (the double's in-process transport). The SDK calls such
// a transport directly rather than through http.Client, whose fixed cost
// (a header copy kept for redirects, a URL copy) was a tenth of an
// in-process call; it keeps the client for anything the client adds.
type InProcess interface {
	http.RoundTripper
	// InProcess marks the transport; it does nothing. Its argument's type
	// is internal, so no RoundTripper outside this module has it by chance.
	InProcess(InProcessMark)
}

// InProcessMark is the argument of InProcess.
type InProcessMark struct{}
