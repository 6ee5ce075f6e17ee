package projectopstest

import (
	"net/http"
	"strconv"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/internal/pager"
)

// listBuilds pages through an environment's builds, newest first (keyset on
// creation order).
func (s *Server) listBuilds(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID, envID := r.PathValue("projectId"), r.PathValue("environmentId")
	kind := "builds:" + envID
	limit, before, herr := pageArgs(r, kind)
	if herr != nil {
		return herr
	}
	s.mu.Lock()
	e, _, herr := s.findEnvLocked(a, projectID, envID, accessRead)
	if herr != nil {
		s.mu.Unlock()
		return herr
	}
	page := pager.Page[environments.Build]{Items: []environments.Build{}}
	for i := len(e.builds) - 1; i >= 0; i-- {
		b := e.builds[i]
		if before > 0 && b.ord >= before {
			continue
		}
		if len(page.Items) == limit {
			page.NextCursor = encodeCursor(kind, strconv.Itoa(b.ord+1))
			break
		}
		page.Items = append(page.Items, buildView(b))
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, page)
	return nil
}

// buildEnvironment records a queued build of the current Dockerfile and
// answers 202 at once; the build runs on a goroutine the server owns.
func (s *Server) buildEnvironment(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID, envID := r.PathValue("projectId"), r.PathValue("environmentId")
	var e *envRec
	var run func()
	v, herr := s.bodyless(r, func() (herr *httpError) {
		e, _, herr = s.findEnvLocked(a, projectID, envID, accessWrite)
		return herr
	}, func() any {
		b, ctx := s.startBuildLocked(e)
		run = func() { s.runBuild(ctx, projectID, b) }
		return environments.BuildStarted{ID: e.id, BuildID: b.id, Reused: b.reused}
	})
	if herr != nil {
		return herr
	}
	run()
	writeJSON(w, http.StatusAccepted, v)
	return nil
}
