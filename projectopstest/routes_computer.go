package projectopstest

import (
	"context"
	"net/http"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/internal/apierr"
)

// computerLocked returns the caller's computer in a project, making it (on
// the base image and the deployment's provider) on first use.
func (s *Server) computerLocked(projectID, userID string) *computerRec {
	es := s.st.envStore()
	key := [2]string{projectID, userID}
	c := es.computers[key]
	if c == nil {
		id, _ := s.st.newID("cmp", "") // cannot fail without a wanted id
		c = &computerRec{id: id, projectID: projectID, userID: userID, provider: s.envOpt.provider,
			status: ComputerRunning}
		es.computers[key] = c
	}
	return c
}

// provisionLocked wipes c's installed state and starts re-provisioning it
// from its image. The returned func, called unlocked, finishes the
// provisioning in the background (Server.Wait waits for it).
func (s *Server) provisionLocked(c *computerRec) func() {
	c.installed = nil
	c.status = ComputerProvisioning
	c.provisions++
	gen := c.provisions
	return func() {
		s.goBackground(func(context.Context) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if c.provisions == gen {
				c.status = ComputerRunning
			}
		})
	}
}

// readyBuild is the environment's pinned image: its newest ready build.
func (e *envRec) readyBuild() *buildRec {
	for i := len(e.builds) - 1; i >= 0; i-- {
		if e.builds[i].status == environments.BuildReady {
			return e.builds[i]
		}
	}
	return nil
}

// bootEnvironment attaches the environment's newest ready build to the
// caller's computer and re-provisions it. No ready build, or one built for
// another provider than the computer's, is 409 CONFLICT with a reason.
func (s *Server) bootEnvironment(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID, envID := r.PathValue("projectId"), r.PathValue("environmentId")
	var e *envRec
	var b *buildRec
	var finish func()
	v, herr := s.bodyless(r, func() (herr *httpError) {
		if e, _, herr = s.findEnvLocked(a, projectID, envID, accessWrite); herr != nil {
			return herr
		}
		if b = e.readyBuild(); b == nil {
			latest := "none"
			if n := len(e.builds); n > 0 {
				latest = string(e.builds[n-1].status)
			}
			return newError(apierr.CodeConflict, "The environment has no ready build: build it first",
				map[string]any{"reason": string(environments.ReasonBuildNotReady), "latestBuildStatus": latest})
		}
		provider := s.envOpt.provider
		if c := s.st.envStore().computers[[2]string{projectID, a.userID}]; c != nil {
			provider = c.provider
		}
		if b.provider != provider {
			return newError(apierr.CodeConflict, "The environment's build is for another computer provider than your computer's",
				map[string]any{"reason": string(environments.ReasonProviderMismatch),
					"buildProvider": b.provider, "computerProvider": provider})
		}
		return nil
	}, func() any {
		c := s.computerLocked(projectID, a.userID)
		c.envID, c.buildID, c.digests = e.id, b.id, append([]string{}, b.digests...)
		finish = s.provisionLocked(c)
		return environments.ComputerAttached{EnvironmentID: e.id, ComputerID: c.id, Status: c.status}
	})
	if herr != nil {
		return herr
	}
	finish()
	writeJSON(w, http.StatusOK, v)
	return nil
}

// resetComputer re-provisions the caller's computer from its current image.
func (s *Server) resetComputer(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID := r.PathValue("projectId")
	var finish func()
	v, herr := s.bodyless(r, func() *httpError {
		_, _, herr := s.st.projectFor(a, projectID, accessWrite)
		return herr
	}, func() any {
		finish = s.provisionLocked(s.computerLocked(projectID, a.userID))
		return environments.ComputerReset{ProjectID: projectID, Reset: true}
	})
	if herr != nil {
		return herr
	}
	finish()
	writeJSON(w, http.StatusOK, v)
	return nil
}
