package projectopstest

import "github.com/projectops/projectops-go/projectopstest/internal/edge"

// claimUpload checks a minted upload URL's token and marks it used, before
// its body is read: an unknown token is 404, a used or expired one 403
// (404 once forgotten, a second UploadURLTTL after its expiry).
// Claiming first also means two uploads racing on one URL read one body.
func (s *Server) claimUpload(token string) (*uploadRec, *edge.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	up := s.st.ingest.uploads[token]
	if up != nil && up.forgotten(s.now()) { // as a sweep would have
		delete(s.st.ingest.uploads, token)
		up = nil
	}
	switch {
	case up == nil:
		return nil, notFoundIn("Upload URL")
	case up.used:
		return nil, edge.Forbidden("Upload URL was already used")
	case !s.now().Before(up.expires):
		return nil, edge.Forbidden("Upload URL has expired")
	}
	up.used = true
	return up, nil
}
