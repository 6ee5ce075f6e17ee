package projectopstest

import "strings"

// securityHeaderNames and securityHeaderValues are the headers the
// service's app sets on every answer it makes, before its origin check,
// CORS, body cap and authentication run (its securityHeadersMiddleware,
// mounted on "*"), in canonical form.
var (
	securityHeaderNames = [4]string{
		"X-Content-Type-Options", "X-Frame-Options", "X-Xss-Protection", "Referrer-Policy",
	}
	securityHeaderValues = [4]string{
		"nosniff", "SAMEORIGIN", "1; mode=block", "strict-origin-when-cross-origin",
	}
)

// setSecurityHeaders puts the service app's security headers on rec's
// answer. The values live in rec's own allocation, not in shared slices:
// the in-process transport hands the header map to the client, which may
// change what it holds.
func setSecurityHeaders(rec *statusRecorder) {
	rec.sec = securityHeaderValues
	h := rec.Header()
	for i, name := range securityHeaderNames {
		h[name] = rec.sec[i : i+1 : i+1]
	}
}

// appServes reports whether the service's app itself answers path, and so
// sets its security headers: every path but the relay edge's (tunnel
// public URLs and the agent's endpoint, which the service serves from its
// tunnel edge, not from its app) and minted upload URLs (storage's).
func appServes(path string) bool {
	return !strings.HasPrefix(path, relayPublicPath) && !strings.HasPrefix(path, apiPrefix+uploadPath)
}
