package projectopstest

import (
	"net/http"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/shared"
)

// authenticate applies the key rules in the real gateway's order: the key
// (401 missing/invalid/revoked), the per-key rate limit (429), the
// creator (401), the key's organization (401 ORPHANED_KEY), then the
// creator's role (403 for organization guests). The returned key id is set
// whenever the key was recognised, so the request log can attribute
// refused requests too.
func (s *Server) authenticate(r *http.Request) (actor, *edge.Error) {
	// Repeated Authorization headers reach the service's gateway as one
	// value joined with ", " (Node's Headers), which no key matches.
	token, ok := bearer(strings.Join(r.Header.Values("Authorization"), ", "))
	if !ok {
		return actor{}, edge.Unauthorized("Bearer token required") // the gateway's words
	}
	if !strings.HasPrefix(token, keyPrefix) {
		return actor{}, edge.Unauthorized("Invalid API key")
	}
	a := s.lookupKey(token)
	if a.keyID == "" {
		return a, edge.Unauthorized("Invalid API key")
	}
	// A recognised key is metered before anything else about it is
	// checked, an orphaned one too.
	if s.limiter.Enabled() { // else the clock need not be read
		if wait, stalled := s.limiter.Wait(a.keyID, s.now()); wait > 0 {
			msg := "API key rate limit exceeded. Slow down and retry."
			if stalled && s.dated {
				// Retry-After is on the injected clock: a caller sleeping
				// it in real time is refused for ever.
				msg += " " + stalledClockHint
			}
			e := edge.NewError(shared.CodeRateLimited, msg, nil)
			e.RetryAfter = wait
			return a, e
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.st.users[a.userID]
	switch {
	case u == nil || a.orgID != "" && u.orgID != a.orgID:
		return a, edge.Unauthorized("Unknown user")
	case a.orgID == "":
		return a, edge.NewError(shared.CodeUnauthorized, "This API key is not bound to an organization. Re-create it from Settings → API keys.",
			map[string]any{"reason": string(shared.ReasonOrphanedKey)})
	case u.role == RoleGuest:
		return a, edge.Forbidden("Guest sessions cannot use the API")
	}
	return a, nil
}

// lookupKey finds the unrevoked key token names; the zero actor when none.
func (s *Server) lookupKey(token string) actor {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k := s.st.findKey(token); k != nil && !k.revoked {
		return actor{keyID: k.id, userID: k.userID, orgID: k.orgID}
	}
	return actor{}
}

// keyIDOf is the id of the key r carries, as authenticate recognises it,
// without checking or metering it: for the request log of a request a
// fault answers before authentication.
func (s *Server) keyIDOf(r *http.Request) string {
	token, ok := bearer(strings.Join(r.Header.Values("Authorization"), ", "))
	if !ok || !strings.HasPrefix(token, keyPrefix) {
		return ""
	}
	return s.lookupKey(token).keyID
}
