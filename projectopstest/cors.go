package projectopstest

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// WithAllowedOrigins sets the browser origins ("scheme://host[:port]",
// matched exactly) the double serves. The service serves only its own web
// app's origins: a request whose Origin header names any other is refused
// with 403 before authentication, and a browser's preflight (OPTIONS) is
// answered 204 for every origin but carries Access-Control-Allow-Origin
// only for a listed one. By default no origin is listed, as for a client
// outside the service's web app; requests without an Origin header (every
// non-browser client) are not affected.
func WithAllowedOrigins(origins ...string) Option {
	return func(o *options) error {
		for _, origin := range origins {
			// As a browser writes one: lower case, nothing after the port.
			u, err := url.Parse(origin)
			if err != nil || u.Scheme == "" || u.Host == "" || origin != u.Scheme+"://"+u.Host ||
				origin != strings.ToLower(origin) {
				return errors.New("projectopstest: WithAllowedOrigins: " + origin +
					" is not an origin as a browser sends it (scheme://host[:port], lower case)")
			}
		}
		o.origins = slices.Clone(origins)
		return nil
	}
}

// The methods a preflight allows: the service's cors middleware's default.
const corsAllowMethods = "GET,HEAD,PUT,POST,DELETE,PATCH"

// corsGate does what the service's app does for browsers before its
// routes (origin validation, then a cors middleware with credentials)
// and reports whether the request goes on: a foreign Origin is 403 (as
// the spec's envelope: the service's body here is {error, message}), a
// preflight is answered 204 whatever its path or key, and every other
// response carries the credentials header, Vary: Origin and, for a listed
// origin, Access-Control-Allow-Origin.
func (s *Server) corsGate(w *statusRecorder, r *http.Request) bool {
	if strings.HasPrefix(r.URL.Path, apiPrefix+uploadPath) {
		return storageCORS(w, r)
	}
	// Repeated headers reach the service joined with ", " (Node's Headers).
	origin := strings.Join(r.Header.Values("Origin"), ", ")
	allowed := origin != "" && slices.Contains(s.origins, origin)
	preflight := r.Method == http.MethodOptions
	if origin != "" && !allowed && !preflight {
		edge.WriteError(w, edge.Forbidden("Request origin not allowed."))
		return false
	}
	h := w.Header()
	if allowed {
		h["Access-Control-Allow-Origin"] = []string{origin}
	}
	// Values in the recorder's allocation: the in-process transport hands
	// this map to the client, which may change what it holds.
	w.cors = [2]string{"true", "Origin"}
	h["Access-Control-Allow-Credentials"] = w.cors[0:1:1]
	h["Vary"] = w.cors[1:2:2]
	if !preflight {
		return true
	}
	h.Set("Access-Control-Allow-Methods", corsAllowMethods)
	if asked := askedHeaders(r); asked != "" {
		h.Set("Access-Control-Allow-Headers", asked)
		h.Add("Vary", "Access-Control-Request-Headers")
	}
	w.WriteHeader(http.StatusNoContent)
	return false
}

// storageCORS is a minted upload URL's: storage's, which takes a file from
// any origin without credentials (a browser's reporter uploads there
// straight), so a preflight is 204 for every origin.
func storageCORS(w http.ResponseWriter, r *http.Request) bool {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	if r.Method != http.MethodOptions {
		return true
	}
	h.Set("Access-Control-Allow-Methods", "POST")
	if asked := askedHeaders(r); asked != "" {
		h.Set("Access-Control-Allow-Headers", asked)
	}
	w.WriteHeader(http.StatusNoContent)
	return false
}

// askedHeaders is a preflight's Access-Control-Request-Headers as the
// answer's Allow-Headers lists them: every name, repeated headers joined,
// separated by bare commas.
func askedHeaders(r *http.Request) string {
	asked := strings.Join(r.Header.Values("Access-Control-Request-Headers"), ",")
	if asked == "" {
		return ""
	}
	names := strings.Split(asked, ",")
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
	}
	return strings.Join(names, ",")
}
