package projectopstest

import (
	"net/http"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// keySurfacePath is where the service serves its key-management surface:
// under its web app's /api/web, outside the API's /api/v1 (the service's
// routes/web/index.ts mounts it there; nothing answers it under /api/v1).
const keySurfacePath = "/api/web/api-keys"

// underKeySurface reports whether path is the key-management surface or
// one of its sub-paths.
func underKeySurface(path string) bool {
	return path == keySurfacePath || strings.HasPrefix(path, keySurfacePath+"/")
}

// keyManagementRoutes serves the key-management surface, every method and
// sub-path. It is outside /api/v1, so, like the relay's routes, it is not
// one of Routes and takes no fault: a test has nothing to fault on a
// surface that always refuses the only credential the double issues.
func keyManagementRoutes(s *Server, rt *router) {
	for _, pattern := range []string{keySurfacePath, keySurfacePath + "/"} {
		rt.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			infoOf(w).route = pattern
			if herr := s.keyManagement(w, r); herr != nil {
				edge.WriteError(w, herr)
			}
		})
	}
}

// keyManagement answers a request to the key-management surface as the
// service does. API keys cannot manage API keys (api-spec.md §5): any
// "Bearer sk_…" is refused 403 on the prefix alone, before the key is
// looked up or metered and whatever its size (the router skips its
// Authorization cap here), so a revoked, orphaned or made-up key gets the
// same answer as a live one (the surface cannot tell a caller whether a
// key works) and no request here spends a key's rate budget. Anything
// else needs a web session: no bearer is 401; any other bearer is taken
// for a session token, which the double never issues: 401 on the
// service's routes (list, create, delete one) and 404 on any other path
// or method. A create reads and checks its body first, as the service
// does before it looks at the session, so a bad body is 400
// VALIDATION_ERROR and only a good one meets the session's 401. (The
// service answers its own Slack and Discord bot credentials through their
// handlers, 401 off their allowlists; the double issues neither.)
func (s *Server) keyManagement(w http.ResponseWriter, r *http.Request) *edge.Error {
	// Repeated headers reach the service joined with ", " (Node's Headers).
	token, ok := bearer(strings.Join(r.Header.Values("Authorization"), ", "))
	switch {
	case ok && strings.HasPrefix(token, keyPrefix):
		// The answer is decided; the lookup only tells the request log
		// whose key it was.
		infoOf(w).keyID = s.lookupKey(token).keyID
		return edge.Forbidden("API keys cannot manage other API keys")
	case !ok:
		return edge.Unauthorized("Bearer token required")
	case !keySurfaceServes(r.Method, r.URL.Path):
		return edge.NotFound("No route for " + r.Method + " " + s.rt.shownPath(w, r))
	case r.Method == http.MethodPost:
		if herr := checkKeyCreate(r); herr != nil {
			return herr
		}
	}
	return edge.Unauthorized("Invalid or expired session token")
}

// keySurfaceServes reports whether the service has a route for method and
// path on the key-management surface: list (GET, and so HEAD) and create
// on the surface itself, delete on one key's id.
func keySurfaceServes(method, path string) bool {
	if path == keySurfacePath {
		return method == http.MethodGet || method == http.MethodHead || method == http.MethodPost
	}
	id, ok := strings.CutPrefix(path, keySurfacePath+"/")
	return ok && method == http.MethodDelete && id != "" && !strings.Contains(id, "/")
}
