package projectopstest

import (
	"github.com/projectops/projectops-go/projectopstest/internal/builds"
	"net/http"
	"strconv"
	"strings"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/pager"
)

const envRoute = "/projects/{projectId}/computer-environments"

func (s *Server) environmentRoutes() {
	s.handle("GET "+envRoute, s.listEnvironments)
	s.handle("POST "+envRoute, s.createEnvironment)
	s.handle("GET "+envRoute+"/{environmentId}", s.getEnvironment)
	s.handle("PATCH "+envRoute+"/{environmentId}", s.updateEnvironment)
	s.handle("DELETE "+envRoute+"/{environmentId}", s.deleteEnvironment)
	s.handle("POST "+envRoute+"/{environmentId}/promote", s.shareEnvironment)
	s.handle("GET "+envRoute+"/{environmentId}/builds", s.listBuilds)
	s.handle("POST "+envRoute+"/{environmentId}/build", s.buildEnvironment)
	s.handle("POST "+envRoute+"/{environmentId}/use", s.bootEnvironment)
	s.handle("POST /projects/{projectId}/computer/reset", s.resetComputer)
}

// visibleTo reports whether u sees e: shared environments are the project's,
// drafts their owner's alone.
func (e *envRec) visibleTo(userID string) bool {
	return e.sharing == environments.SharingProject || e.ownerID == userID
}

// findEnvLocked resolves an environment the caller sees in a project they
// may access with need. Another project's environment and another user's
// draft both read as 404. It also returns the caller's project role.
func (s *Server) findEnvLocked(a actor, projectID, envID string, need access) (*envRec, Role, *httpError) {
	_, role, herr := s.st.projectFor(a, projectID, need)
	if herr != nil {
		return nil, "", herr
	}
	e := s.st.envStore().envs[envID]
	if e == nil || e.projectID != projectID || !e.visibleTo(a.userID) {
		return nil, "", notFoundIn("Computer environment")
	}
	return e, role, nil
}

// listEnvironments pages through the caller's drafts and the project's
// shared environments in creation order (keyset on creation order, so
// pages stay consistent while environments come and go).
func (s *Server) listEnvironments(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID := r.PathValue("projectId")
	kind := "computer-environments:" + projectID
	limit, after, herr := pageArgs(r, kind)
	if herr != nil {
		return herr
	}
	s.mu.Lock()
	if _, _, herr := s.st.projectFor(a, projectID, accessRead); herr != nil {
		s.mu.Unlock()
		return herr
	}
	page := pager.Page[environments.Environment]{Items: []environments.Environment{}}
	for _, e := range sortedByOrd(s.st.envStore().envs, func(e *envRec) int { return e.ord }, func(e *envRec) bool {
		return e.projectID == projectID && e.visibleTo(a.userID) && e.ord > after
	}) {
		if len(page.Items) == limit {
			page.NextCursor = encodeCursor(kind, strconv.Itoa(e.ord-1))
			break
		}
		page.Items = append(page.Items, envView(e, a.userID))
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, page)
	return nil
}

func (s *Server) getEnvironment(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	s.mu.Lock()
	e, _, herr := s.findEnvLocked(a, r.PathValue("projectId"), r.PathValue("environmentId"), accessRead)
	if herr != nil {
		s.mu.Unlock()
		return herr
	}
	v := envView(e, a.userID)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, v)
	return nil
}

// createEnvironment checks access before the body, so a guest learns
// nothing from validation. The Dockerfile itself is checked by the build.
func (s *Server) createEnvironment(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID := r.PathValue("projectId")
	var p environments.CreateParams
	present, herr := s.decodeWrite(r, a, &p)
	if herr != nil {
		return herr
	}
	for _, f := range []string{"name", "dockerfile"} {
		if !present[f] {
			return errValidation(f, f+" is required")
		}
	}
	if herr := checkEnvFields(environments.UpdateParams(p), present); herr != nil {
		return herr
	}
	s.mu.Lock()
	if _, _, herr := s.st.projectFor(a, projectID, accessWrite); herr != nil {
		s.mu.Unlock()
		return herr
	}
	e, err := s.insertEnvLocked(EnvironmentSpec{ProjectID: projectID, OwnerUserID: a.userID, Name: p.Name, Dockerfile: p.Dockerfile})
	var v environments.Environment
	if err == nil {
		v = envView(e, a.userID)
	}
	s.mu.Unlock()
	if err != nil {
		return errInternal()
	}
	writeJSON(w, http.StatusCreated, v)
	return nil
}

func (s *Server) updateEnvironment(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID, envID := r.PathValue("projectId"), r.PathValue("environmentId")
	s.mu.Lock()
	_, _, herr := s.findEnvLocked(a, projectID, envID, accessWrite)
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	var p environments.UpdateParams
	present, herr := decodeBody(r, &p)
	if herr != nil {
		return herr
	}
	if !present["name"] && !present["dockerfile"] {
		return newError(apierr.CodeValidation, "Provide at least one of name or dockerfile",
			map[string]any{"fields": []string{"name", "dockerfile"}})
	}
	if herr := checkEnvFields(p, present); herr != nil {
		return herr
	}
	s.mu.Lock()
	e, _, herr := s.findEnvLocked(a, projectID, envID, accessWrite)
	if herr != nil {
		s.mu.Unlock()
		return herr
	}
	if present["name"] {
		e.name = strings.TrimSpace(p.Name)
	}
	if present["dockerfile"] {
		e.dockerfile, e.contentHash = p.Dockerfile, builds.ContentHash(p.Dockerfile)
	}
	e.updatedAt = s.now()
	v := envView(e, a.userID)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, v)
	return nil
}

// bodyless runs a bodyless operation: guard (access, role, existence)
// under the lock, the body check unlocked (reading a body must not hold the
// store), then guard again and apply under the lock. The result is written
// by the caller, unlocked.
func (s *Server) bodyless(r *http.Request, guard func() *httpError, apply func() any) (any, *httpError) {
	s.mu.Lock()
	herr := guard()
	s.mu.Unlock()
	if herr != nil {
		return nil, herr
	}
	if herr := rejectBody(r); herr != nil {
		return nil, herr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if herr := guard(); herr != nil {
		return nil, herr
	}
	return apply(), nil
}

// deleteEnvironment removes the environment and its builds, stops its
// in-flight builds, and falls the computers booted from it back to the
// base image. A shared environment needs project admin.
func (s *Server) deleteEnvironment(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID, envID := r.PathValue("projectId"), r.PathValue("environmentId")
	var e *envRec
	v, herr := s.bodyless(r, func() *httpError {
		var role Role
		var herr *httpError
		if e, role, herr = s.findEnvLocked(a, projectID, envID, accessWrite); herr != nil {
			return herr
		}
		if e.sharing == environments.SharingProject && role != RoleAdmin {
			return errForbidden("Deleting a project-shared environment requires project admin")
		}
		return nil
	}, func() any {
		es := s.st.envStore()
		for _, b := range e.builds {
			if b.cancel != nil {
				b.cancel()
			}
			delete(es.builds, b.id)
		}
		delete(es.envs, e.id)
		for _, c := range es.computers {
			if c.envID == e.id {
				c.envID, c.buildID, c.digests = "", "", nil
			}
		}
		return environments.Deleted{ID: e.id, Deleted: true}
	})
	if herr != nil {
		return herr
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}

// shareEnvironment promotes a draft; sharing a shared one changes nothing.
func (s *Server) shareEnvironment(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID, envID := r.PathValue("projectId"), r.PathValue("environmentId")
	var e *envRec
	v, herr := s.bodyless(r, func() *httpError {
		var role Role
		var herr *httpError
		if e, role, herr = s.findEnvLocked(a, projectID, envID, accessWrite); herr != nil {
			return herr
		}
		if role != RoleAdmin {
			return errForbidden("Sharing an environment with the project requires project admin")
		}
		return nil
	}, func() any {
		if e.sharing != environments.SharingProject {
			e.sharing = environments.SharingProject
			e.updatedAt = s.now()
		}
		return envView(e, a.userID)
	})
	if herr != nil {
		return herr
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}
