package projectopstest

import (
	"context"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/shared"
)

// computerLocked returns the caller's computer in a project, making it (on
// the base image and the deployment's provider) on first use.
func (bd *builder) computerLocked(projectID, userID string) *computerRec {
	s := bd.s
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
func (bd *builder) provisionLocked(c *computerRec) func() {
	s := bd.s
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

// bootable is env for a boot: its newest ready build, which must be for
// the caller's computer's provider; no ready build, or one for another
// provider, is 400 VALIDATION_ERROR with a message and no details: the
// service's router turns its backend's refusal into a validation error
// carrying the message only.
func (c *call) bootable() (*envRec, *buildRec, *edge.Error) {
	e, herr := c.env()
	if herr != nil {
		return nil, nil, herr
	}
	b := e.readyBuild()
	if b == nil {
		latest := "none"
		if n := len(e.builds); n > 0 {
			latest = string(e.builds[n-1].status)
		}
		return nil, nil, edge.NewError(shared.CodeValidation, "The environment has no ready build (latest: "+latest+"): build it first", nil)
	}
	provider := c.s.envOpt.provider
	if cp := c.s.st.envStore().computers[[2]string{c.project.id, c.a.userID}]; cp != nil {
		provider = cp.provider
	}
	if b.provider != provider {
		return nil, nil, edge.NewError(shared.CodeValidation, "The environment's build is for computer provider "+
			b.provider+", not your computer's ("+provider+")", nil)
	}
	return e, b, nil
}

// bootEnvironment attaches the environment's newest ready build to the
// caller's computer and re-provisions it.
func bootEnvironment(c *call, _ *noBody) (environments.ComputerAttached, *edge.Error) {
	e, b, herr := c.bootable()
	if herr != nil {
		return environments.ComputerAttached{}, herr
	}
	cp := c.s.bld.computerLocked(c.project.id, c.a.userID)
	cp.envID, cp.buildID, cp.digests = e.id, b.id, append([]string{}, b.digests...)
	c.after(c.s.bld.provisionLocked(cp))
	return environments.ComputerAttached{EnvironmentID: e.id, ComputerID: cp.id, Status: cp.status}, nil
}

// resetComputer re-provisions the caller's computer from its current image.
func resetComputer(c *call, _ *noBody) (environments.ComputerReset, *edge.Error) {
	c.after(c.s.bld.provisionLocked(c.s.bld.computerLocked(c.project.id, c.a.userID)))
	return environments.ComputerReset{ProjectID: c.project.id, Reset: true}, nil
}
