package option

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// refused lists the headers no option may set, each with why: for a
// header the SDK sets itself, the option to use instead.
var refused = map[string]string{
	// The key is WithAPIKey's, never a header, so it cannot leak into a
	// log of options.
	"Authorization": "the SDK sets it from the key: use WithAPIKey",
	// The service reads the key in both spellings; net/http re-sends a
	// request carrying Idempotency-Key or X-Idempotency-Key when a reused
	// connection fails, so a write the service does not deduplicate would
	// run twice.
	"Idempotency-Key":          useIdempotencyKey,
	"X-Mcpjam-Idempotency-Key": useIdempotencyKey,
	"X-Idempotency-Key":        useIdempotencyKey,
	"User-Agent":               "the SDK sets it: use WithUserAgent, which goes before the SDK's own",
	"Content-Type":             sdkSets, "Content-Length": sdkSets, "Accept": sdkSets, "X-Projectops-Retry-Count": sdkSets,
	"Host": "net/http sets it from the base URL: use WithBaseURL",

	// Connection-specific fields (RFC 9110 section 7.6.1, RFC 9113
	// section 8.2.2), and Trailer, which net/http writes itself. What
	// net/http does with each, over HTTP/2 (which the service speaks)
	// first, says why.
	"Connection": "it is connection-specific, and net/http manages connections: over HTTP/2 a value but close or keep-alive fails inside net/http and those two are dropped; " +
		"to close each connection after its request, use WithHTTPClient with an http.Transport that has DisableKeepAlives set",
	"Keep-Alive":       "it is connection-specific: net/http drops it over HTTP/2",
	"Proxy-Connection": "it is connection-specific: net/http drops it over HTTP/2",
	"Te": `it is connection-specific: over HTTP/2 a value but "trailers" makes the request malformed (RFC 9113 section 8.2.2), ` +
		"and the SDK reads no trailers to ask for",
	"Trailer": "it announces trailer fields (RFC 9110 section 6.6.2), which net/http sends, and announces, only from http.Request.Trailer, " +
		"which no option sets (over HTTP/1.1 net/http drops the header)",
	"Transfer-Encoding": "it is connection-specific, and net/http frames the body itself: it drops the header, and over HTTP/2 a value but chunked fails inside net/http",
	"Upgrade":           "it is connection-specific, and the API switches no protocol: over HTTP/2 any value fails inside net/http",
}

// Why the SDK's own headers are refused.
const (
	useIdempotencyKey = "the SDK sends the call's key: use WithIdempotencyKey"
	sdkSets           = "the SDK sets it on every request"
)

// checkHeaderField refuses a header name and value no request may carry:
// a refused header (above), a name that is not an HTTP token as it is
// stored (net/http sends it so, and refuses one with a space at send
// time, which a read would retry as a network error), a value with a
// control character (a line break could smuggle a header). by names what
// set it in the error.
func checkHeaderField(by, name, value string) error {
	k := http.CanonicalHeaderKey(name)
	if why, ok := refused[k]; ok {
		return invalid(by, fmt.Sprintf("%s: header %q cannot be set by an option: %s", by, name, why))
	}
	if !validHeaderName(k) || !validHeaderValue(value) {
		return invalid(by, fmt.Sprintf("%s: header %q: not a valid HTTP header name and value", by, name))
	}
	return nil
}

// checkHeader runs checkHeaderField over every field of h; a refusal
// names the first bad field in name order, the same every time. ForClient
// and ForCall run it (through checkHeaders): an option of the caller's own
// may fill Config.Header without WithHeader. The names are sorted only
// when one is bad, as every call with a header of its own passes here.
func checkHeader(h http.Header) error {
	bad := false
	for k, vs := range h {
		if checkField(k, vs) != nil {
			bad = true
			break
		}
	}
	if !bad {
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(h)) {
		if err := checkField(k, h[k]); err != nil {
			return err
		}
	}
	return nil
}

// checkHeaders runs checkHeader over c.Header, then checkHeaderField over
// each name of c.ReplaceHeader: the SDK's own headers are not the
// caller's to remove either.
func (c *Config) checkHeaders() error {
	if err := checkHeader(c.Header); err != nil {
		return err
	}
	for _, k := range c.ReplaceHeader {
		if err := checkHeaderField("Config.ReplaceHeader", k, ""); err != nil {
			return err
		}
	}
	return nil
}

// checkField checks one field of a Config.Header: each of its values, or
// the name alone when it has none.
func checkField(name string, values []string) error {
	if len(values) == 0 {
		return checkHeaderField("Config.Header", name, "")
	}
	for _, v := range values {
		if err := checkHeaderField("Config.Header", name, v); err != nil {
			return err
		}
	}
	return nil
}

// validHeaderName reports an HTTP token (RFC 9110 section 5.6.2).
func validHeaderName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return s != ""
}

// validHeaderValue reports a value net/http would send: no control
// character but the tab.
func validHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
