package tunnelwire

import "net/http"

// A head whose strings are all bytes (see bytestring.go) may still be no
// HTTP message: the service's agent and edge hand a req's and a res's
// strings to Node's http, which throws on a method or header name that is
// not a token, a header value with a control character other than tab,
// and a request path with a character outside U+0021–U+00FF. Net/http
// never reads such a message off a connection either. ValidReq and
// ValidHeader hold a decoded head to those rules (golang.org/x/net's
// httpguts has the same checks; this module does not depend on it).

// ValidReq reports whether a req's method, url and headers make a request
// Node's http.request would send. An empty method is GET to it.
func ValidReq(method, url string, h http.Header) bool {
	if method != "" && !isToken(method) {
		return false
	}
	for i := 0; i < len(url); i++ {
		if url[i] <= ' ' { // bytes 80–ff are the characters U+0080–U+00FF
			return false
		}
	}
	return ValidHeader(h)
}

// ValidHeader reports whether every name in h is a token and every value
// a field value: tab, 20–7e and 80–ff, as Node's setHeader takes them.
func ValidHeader(h http.Header) bool {
	for k, vs := range h {
		if !isToken(k) {
			return false
		}
		for _, v := range vs {
			for i := 0; i < len(v); i++ {
				if c := v[i]; c < ' ' && c != '\t' || c == 0x7f {
					return false
				}
			}
		}
	}
	return true
}

// isToken reports a non-empty RFC 9110 token.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !tokenByte(s[i]) {
			return false
		}
	}
	return true
}
