package projectopstest

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/internal/wire"
)

// builtinToolsJSON maps each harness the service serves (claude-code,
// codex) to its native tools (display-only); its source field says where
// the data comes from.
//
//go:embed data/builtin-tools.json
var builtinToolsJSON []byte

var builtinTools = sync.OnceValue(func() map[string][]catalog.BuiltinTool {
	var doc struct {
		Harnesses map[string][]catalog.BuiltinTool `json:"harnesses"`
	}
	if err := json.Unmarshal(builtinToolsJSON, &doc); err != nil || len(doc.Harnesses) == 0 {
		panic(fmt.Sprintf("projectopstest: bundled builtin tools are invalid: %v", err))
	}
	return doc.Harnesses
})

func (s *Server) catalogRoutes() {
	s.handle("GET /me", s.getMe)
	s.handle("GET /projects", s.listProjects)
	s.handle("GET /projects/{projectId}/servers", s.listServers)
	s.handle("GET /chat-sessions", s.listChatSessions)
	s.handle("GET /harness/{harnessId}/builtin-tools", s.listBuiltinTools)
}

func (s *Server) getMe(w http.ResponseWriter, _ *http.Request, a actor) *httpError {
	s.mu.Lock()
	u := s.st.users[a.userID]
	if u == nil {
		s.mu.Unlock()
		return errUnauthorized("Invalid API key")
	}
	me := catalog.Me{ID: u.id, Email: u.email, Name: u.name,
		CreatedAt: wire.MillisOf(u.createdAt), UpdatedAt: wire.MillisOf(u.updatedAt)}
	if org := s.st.orgs[a.orgID]; org != nil {
		me.Plan = org.plan
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, meView(me))
	return nil
}

// listProjects lists the projects the caller can access inside the key's
// organization; an organizationId filter naming any other organization
// matches nothing.
func (s *Server) listProjects(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	page := pager.Page[projectJSON]{Items: []projectJSON{}}
	if org := r.URL.Query().Get("organizationId"); org == "" || org == a.orgID {
		s.mu.Lock()
		u := s.st.users[a.userID]
		for _, p := range sortedByOrd(s.st.projects, func(p *projectRec) int { return p.ord }, nil) {
			if role := roleIn(u, p); role != "" && p.orgID == a.orgID {
				page.Items = append(page.Items, projectView(p, role))
			}
		}
		s.mu.Unlock()
	}
	writeJSON(w, http.StatusOK, page)
	return nil
}

func (s *Server) listServers(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID := r.PathValue("projectId")
	s.mu.Lock()
	if _, _, herr := s.st.projectFor(a, projectID, accessRead); herr != nil {
		s.mu.Unlock()
		return herr
	}
	page := pager.Page[serverJSON]{Items: []serverJSON{}}
	for _, sv := range sortedByOrd(s.st.servers, func(v *serverRec) int { return v.ord },
		func(v *serverRec) bool { return v.projectID == projectID }) {
		page.Items = append(page.Items, serverView(sv))
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, page)
	return nil
}

func (s *Server) listBuiltinTools(w http.ResponseWriter, r *http.Request, _ actor) *httpError {
	tools, ok := builtinTools()[r.PathValue("harnessId")]
	if !ok {
		return errNotFound("Unknown harness")
	}
	writeJSON(w, http.StatusOK, pager.Page[catalog.BuiltinTool]{Items: tools})
	return nil
}
