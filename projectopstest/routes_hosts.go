package projectopstest

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/pager"
)

func (s *Server) hostRoutes() {
	s.handle("GET /projects/{projectId}/hosts", s.listHosts)
	s.handle("POST /projects/{projectId}/hosts", s.createHost)
	s.handle("GET /projects/{projectId}/hosts/{hostId}", s.getHost)
	s.handle("PATCH /projects/{projectId}/hosts/{hostId}", s.updateHost)
	s.handle("DELETE /projects/{projectId}/hosts/{hostId}", s.deleteHost)
}

// findHost resolves a host of a project the caller may access with need; a
// host of another project reads as 404. Call with Server.mu held.
func (s *Server) findHost(a actor, projectID, hostID string, need access) (*hostRec, *httpError) {
	if _, _, herr := s.st.projectFor(a, projectID, need); herr != nil {
		return nil, herr
	}
	h := s.st.hosts[hostID]
	if h == nil || h.projectID != projectID {
		return nil, notFoundIn("Host")
	}
	return h, nil
}

func (s *Server) listHosts(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID := r.PathValue("projectId")
	s.mu.Lock()
	if _, _, herr := s.st.projectFor(a, projectID, accessRead); herr != nil {
		s.mu.Unlock()
		return herr
	}
	page := pager.Page[hosts.Host]{Items: []hosts.Host{}}
	for _, h := range sortedByOrd(s.st.hosts, func(h *hostRec) int { return h.ord },
		func(h *hostRec) bool { return h.projectID == projectID }) {
		page.Items = append(page.Items, hostView(h))
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, page)
	return nil
}

func (s *Server) getHost(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	s.mu.Lock()
	h, herr := s.findHost(a, r.PathValue("projectId"), r.PathValue("hostId"), accessRead)
	if herr != nil {
		s.mu.Unlock()
		return herr
	}
	d := h.detail // immutable once built: safe to write after unlocking
	s.mu.Unlock()
	writeRaw(w, http.StatusOK, d)
	return nil
}

// createHost checks access before the body, so a guest learns nothing from
// validation; the catalog is consulted without the lock held.
func (s *Server) createHost(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID := r.PathValue("projectId")
	var p hosts.CreateParams
	present, herr := s.decodeWrite(r, a, &p)
	if herr != nil {
		return herr
	}
	cfg, herr := s.resolveHost(hostInput{name: p.Name, template: string(p.Template), theme: p.Theme, config: json.RawMessage(p.Config), present: present})
	if herr != nil {
		return herr
	}
	s.mu.Lock()
	h, herr := s.insertHostLocked(a, projectID, "", strings.TrimSpace(p.Name), cfg)
	var d []byte
	if herr == nil {
		d = h.detail
	}
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	writeRaw(w, http.StatusCreated, d)
	return nil
}

// insertHostLocked stores a host after checking (again, under the lock) the
// caller's write access and that the config's servers are the project's.
// A zero actor skips the access check (seeding).
func (s *Server) insertHostLocked(a actor, projectID, id, name string, cfg map[string]any) (*hostRec, *httpError) {
	if a != (actor{}) {
		if _, _, herr := s.st.projectFor(a, projectID, accessWrite); herr != nil {
			return nil, herr
		}
	}
	if herr := s.checkServerIDsLocked(projectID, configServerIDs(cfg), "config.serverIds"); herr != nil {
		return nil, herr
	}
	hid, err := s.st.newID("hst", id)
	if err != nil {
		return nil, errValidation("id", err.Error())
	}
	now := s.now()
	h := &hostRec{id: hid, projectID: projectID, createdAt: now, updatedAt: now, ord: s.st.nextOrd()}
	setHost(h, name, cfg)
	s.st.hosts[hid] = h
	return h, nil
}

// checkServerIDsLocked requires every id to be a saved server of the project.
func (s *Server) checkServerIDsLocked(projectID string, ids []string, field string) *httpError {
	for _, id := range ids {
		if sv := s.st.servers[id]; sv == nil || sv.projectID != projectID {
			return newError(apierr.CodeValidation, "Unknown server "+jsonQuote(id)+" in "+field,
				map[string]any{"field": field, "serverId": id})
		}
	}
	return nil
}

func (s *Server) updateHost(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID, hostID := r.PathValue("projectId"), r.PathValue("hostId")
	s.mu.Lock()
	_, herr := s.findHost(a, projectID, hostID, accessWrite)
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	var p hosts.UpdateParams
	present, herr := decodeBody(r, &p)
	if herr != nil {
		return herr
	}
	if !present["name"] && !present["config"] {
		return newError(apierr.CodeValidation, "Provide at least one of name or config",
			map[string]any{"fields": []string{"name", "config"}})
	}
	if present["name"] && p.Name == "" {
		return errValidation("name", "name must not be empty")
	}
	var cfg map[string]any
	if present["config"] {
		if cfg, herr = canonicalConfig("config", json.RawMessage(p.Config)); herr != nil {
			return herr
		}
	}
	s.mu.Lock()
	h, herr := s.findHost(a, projectID, hostID, accessWrite)
	if herr == nil && cfg != nil {
		herr = s.checkServerIDsLocked(projectID, configServerIDs(cfg), "config.serverIds")
	}
	if herr != nil {
		s.mu.Unlock()
		return herr
	}
	name := h.name
	if present["name"] {
		name = p.Name
	}
	if cfg == nil {
		cfg = h.config
	}
	setHost(h, name, cfg)
	h.updatedAt = s.now()
	d := h.detail
	s.mu.Unlock()
	writeRaw(w, http.StatusOK, d)
	return nil
}

// deleteHost refuses to delete a host still referenced by an eval suite or
// a chatbox unless force is set; forcing detaches those references.
func (s *Server) deleteHost(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID, hostID := r.PathValue("projectId"), r.PathValue("hostId")
	s.mu.Lock()
	_, herr := s.findHost(a, projectID, hostID, accessWrite)
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	var p hosts.DeleteParams
	if _, herr := decodeBody(r, &p); herr != nil {
		return herr
	}
	s.mu.Lock()
	if _, herr := s.findHost(a, projectID, hostID, accessWrite); herr != nil {
		s.mu.Unlock()
		return herr
	}
	refs := s.hostReferencesLocked(hostID)
	if len(refs) > 0 && !p.Force {
		s.mu.Unlock()
		return newError(apierr.CodeConflict, "Host is still referenced; pass force to delete it anyway",
			map[string]any{"references": refs})
	}
	for _, su := range s.st.suites {
		if su.hostID == hostID {
			su.hostID = ""
		}
	}
	for _, cb := range s.st.chatbox {
		if cb.hostID == hostID {
			cb.hostID = ""
		}
	}
	delete(s.st.hosts, hostID)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, hosts.Deleted{ID: hostID, Deleted: true})
	return nil
}

// hostReference names one object that points at a host.
type hostReference struct {
	Type string `json:"type"` // "evalSuite" or "chatbox"
	ID   string `json:"id"`
	Name string `json:"name"`
}

func (s *Server) hostReferencesLocked(hostID string) []hostReference {
	var refs []hostReference
	for _, su := range sortedByOrd(s.st.suites, func(v *evalSuiteRec) int { return v.ord },
		func(v *evalSuiteRec) bool { return v.hostID == hostID }) {
		refs = append(refs, hostReference{Type: "evalSuite", ID: su.id, Name: su.name})
	}
	for _, cb := range sortedByOrd(s.st.chatbox, func(v *chatboxRec) int { return v.ord },
		func(v *chatboxRec) bool { return v.hostID == hostID }) {
		refs = append(refs, hostReference{Type: "chatbox", ID: cb.id, Name: cb.name})
	}
	return refs
}
