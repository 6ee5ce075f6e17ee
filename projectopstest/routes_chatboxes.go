package projectopstest

import (
	"net/http"

	"github.com/projectops/projectops-go/internal/pager"
)

// Chatboxes are read-only over the API; they are created with AddChatbox
// or a seed.
func (s *Server) chatboxRoutes() {
	s.handle("GET /projects/{projectId}/chatboxes", s.listChatboxes)
	s.handle("GET /projects/{projectId}/chatboxes/{chatboxId}", s.getChatbox)
}

func (s *Server) listChatboxes(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID := r.PathValue("projectId")
	s.mu.Lock()
	if _, _, herr := s.st.projectFor(a, projectID, accessRead); herr != nil {
		s.mu.Unlock()
		return herr
	}
	page := pager.Page[chatboxJSON]{Items: []chatboxJSON{}}
	for _, cb := range sortedByOrd(s.st.chatbox, func(v *chatboxRec) int { return v.ord },
		func(v *chatboxRec) bool { return v.projectID == projectID }) {
		page.Items = append(page.Items, chatboxJSONOf(s.st.chatboxView(cb)))
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, page)
	return nil
}

func (s *Server) getChatbox(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID := r.PathValue("projectId")
	s.mu.Lock()
	if _, _, herr := s.st.projectFor(a, projectID, accessRead); herr != nil {
		s.mu.Unlock()
		return herr
	}
	cb := s.st.chatbox[r.PathValue("chatboxId")]
	if cb == nil || cb.projectID != projectID {
		s.mu.Unlock()
		return notFoundIn("Chatbox")
	}
	d := chatboxDetailJSONOf(s.st.chatboxDetailView(cb))
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, d)
	return nil
}

// keyManagementRoutes answers the key-management surface: API keys cannot
// manage API keys, whatever the method or sub-path (after the key itself is
// validated, so a bad key still gets 401).
func (s *Server) keyManagementRoutes() {
	deny := func(http.ResponseWriter, *http.Request, actor) *httpError {
		return errForbidden("API keys cannot manage API keys")
	}
	s.handle("/api-keys", deny)
	s.handle("/api-keys/", deny)
}
