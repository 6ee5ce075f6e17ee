package projectopstest

import (
	"net/http"
	"strconv"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/projectopstest/internal/builds"
	"github.com/projectops/projectops-go/shared"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/internal/wire"
)

const envRoute = "/projects/{projectId}/computer-environments"

func environmentRoutes(s *Server, rt *router) {
	rt.handle("GET "+envRoute, route(s, op[none, pager.Page[environments.Environment]]{need: accessRead, apply: listEnvironments}))
	rt.handle("POST "+envRoute, route(s, op[environments.CreateParams, environments.Environment]{status: http.StatusCreated,
		need: accessWrite, check: checkCreateEnvironment, apply: createEnvironment}))
	rt.handle("GET "+envRoute+"/{environmentId}", route(s, op[none, environments.Environment]{need: accessRead, apply: getEnvironment}))
	rt.handle("PATCH "+envRoute+"/{environmentId}", route(s, op[environments.UpdateParams, environments.Environment]{
		need: accessWrite, find: findEnv, check: checkUpdateEnvironment, apply: updateEnvironment}))
	rt.handle("DELETE "+envRoute+"/{environmentId}", route(s, op[noBody, environments.Deleted]{need: accessWrite,
		find: func(c *call) *edge.Error { _, herr := c.deletableEnv(); return herr }, apply: deleteEnvironment}))
	rt.handle("POST "+envRoute+"/{environmentId}/promote", route(s, op[noBody, environments.Environment]{need: accessWrite,
		find: func(c *call) *edge.Error { _, herr := c.shareableEnv(); return herr }, apply: shareEnvironment}))
	rt.handle("GET "+envRoute+"/{environmentId}/builds", route(s, op[none, pager.Page[environments.Build]]{need: accessRead, apply: listBuilds}))
	rt.handle("POST "+envRoute+"/{environmentId}/build", route(s, op[noBody, environments.BuildStarted]{
		status: http.StatusAccepted, need: accessWrite, find: findEnv, apply: buildEnvironment}))
	rt.handle("POST "+envRoute+"/{environmentId}/use", route(s, op[noBody, environments.ComputerAttached]{need: accessWrite,
		find: func(c *call) *edge.Error { _, _, herr := c.bootable(); return herr }, apply: bootEnvironment}))
	rt.handle("POST /projects/{projectId}/computer/reset", route(s, op[noBody, environments.ComputerReset]{need: accessWrite,
		apply: resetComputer}))
}

// visibleTo reports whether u sees e: shared environments are the project's,
// drafts their owner's alone.
func (e *envRec) visibleTo(userID string) bool {
	return e.sharing == environments.SharingProject || e.ownerID == userID
}

// env is the route's {environmentId}, an environment the caller sees in
// the call's project: another project's environment and another user's
// draft both read as 404. Call with Server.mu held.
func (c *call) env() (*envRec, *edge.Error) {
	e := c.s.st.envStore().envs[c.path("environmentId")]
	if e == nil || e.projectID != c.project.id || !e.visibleTo(c.a.userID) {
		return nil, notFoundIn("Computer environment")
	}
	return e, nil
}

func findEnv(c *call) *edge.Error {
	_, herr := c.env()
	return herr
}

// deletableEnv is env for a delete: a shared environment needs project
// admin.
func (c *call) deletableEnv() (*envRec, *edge.Error) {
	e, herr := c.env()
	if herr == nil && e.sharing == environments.SharingProject && c.role != RoleAdmin {
		return nil, adminGate()
	}
	return e, herr
}

// shareableEnv is env for sharing, which needs project admin. An admin
// reaches any draft of the project, a member's too: spec §3 makes sharing
// the admin's transition, and a draft only its member creator could see
// would never be shareable. Every other operation keeps drafts personal.
func (c *call) shareableEnv() (*envRec, *edge.Error) {
	if c.role == RoleAdmin {
		if e := c.s.st.envStore().envs[c.path("environmentId")]; e != nil && e.projectID == c.project.id {
			return e, nil
		}
	}
	e, herr := c.env()
	if herr == nil && c.role != RoleAdmin {
		return nil, adminGate()
	}
	return e, herr
}

// adminGate is the service's answer to a member who is not project admin
// deleting a shared environment or sharing one: the NOT_FOUND it gives
// for an environment the caller cannot see, so that the answer does not
// confirm the environment exists.
func adminGate() *edge.Error {
	return edge.NewError(shared.CodeNotFound, "Environment or project not found, or you do not have access to it.", nil)
}

// listEnvironments pages through the caller's drafts and the project's
// shared environments in creation order (keyset on creation order, so
// pages stay consistent while environments come and go).
func listEnvironments(c *call, _ *none) (pager.Page[environments.Environment], *edge.Error) {
	projectID := c.project.id
	kind := "computer-environments:" + projectID
	page := pager.Page[environments.Environment]{Items: []environments.Environment{}}
	limit, after := pageArgs(c.r, kind)
	last := after
	for _, e := range sortedByOrd(c.s.st.envStore().envs, func(e *envRec) int { return e.ord }, func(e *envRec) bool {
		return e.projectID == projectID && e.visibleTo(c.a.userID) && e.ord > after
	}) {
		if len(page.Items) == limit {
			// After the last item shown, not before the next one: one
			// that becomes visible in between (a draft shared since) is
			// on the next page.
			page.NextCursor = edge.EncodeCursor(kind, strconv.Itoa(last))
			break
		}
		page.Items = append(page.Items, envView(e, c.a.userID))
		last = e.ord
	}
	return page, nil
}

func getEnvironment(c *call, _ *none) (environments.Environment, *edge.Error) {
	e, herr := c.env()
	if herr != nil {
		return environments.Environment{}, herr
	}
	return envView(e, c.a.userID), nil
}

// checkCreateEnvironment needs both fields; checkEnvFields checks their
// types and reads the Dockerfile, whose refusal createEnvironment returns.
func checkCreateEnvironment(c *call, p *environments.CreateParams) *edge.Error {
	for _, f := range []string{"name", "dockerfile"} {
		if !c.present[f] {
			return edge.Validation(f, f+" is required")
		}
	}
	return checkEnvFields(c, environments.UpdateParams(*p))
}

// createEnvironment refuses a Dockerfile the build cannot read only here,
// after the access check, so a guest is FORBIDDEN whatever the body's
// Dockerfile.
func createEnvironment(c *call, p *environments.CreateParams) (environments.Environment, *edge.Error) {
	if herr := dockerfileRefusal(c); herr != nil {
		return environments.Environment{}, herr
	}
	e, err := c.s.st.insertEnv(EnvironmentSpec{ProjectID: c.project.id, OwnerUserID: c.a.userID, Name: p.Name, Dockerfile: p.Dockerfile})
	if err != nil {
		return environments.Environment{}, edge.Internal()
	}
	return envView(e, c.a.userID), nil
}

func checkUpdateEnvironment(c *call, p *environments.UpdateParams) *edge.Error {
	if !c.present["name"] && !c.present["dockerfile"] {
		return edge.NewError(shared.CodeValidation, "Provide at least one of name or dockerfile",
			map[string]any{"fields": []string{"name", "dockerfile"}})
	}
	return checkEnvFields(c, *p)
}

// updateEnvironment refuses a Dockerfile the build cannot read after the
// lookup and the access check, so an environment the caller cannot reach
// is NOT_FOUND (a guest FORBIDDEN) whatever the body's Dockerfile.
func updateEnvironment(c *call, p *environments.UpdateParams) (environments.Environment, *edge.Error) {
	e, herr := c.env()
	if herr != nil {
		return environments.Environment{}, herr
	}
	if herr := dockerfileRefusal(c); herr != nil {
		return environments.Environment{}, herr
	}
	if c.present["name"] {
		e.name = wire.TrimJS(p.Name)
	}
	if c.present["dockerfile"] {
		e.dockerfile, e.contentHash = p.Dockerfile, builds.ContentHash(p.Dockerfile)
	}
	e.updatedAt = c.s.now()
	return envView(e, c.a.userID), nil
}

// deleteEnvironment removes the environment and its builds, stops its
// in-flight builds, and falls the computers booted from it back to the
// base image. A shared environment needs project admin.
func deleteEnvironment(c *call, _ *noBody) (environments.Deleted, *edge.Error) {
	e, herr := c.deletableEnv()
	if herr != nil {
		return environments.Deleted{}, herr
	}
	es := c.s.st.envStore()
	for _, b := range e.builds {
		if b.cancel != nil {
			b.cancel()
		}
		delete(es.builds, b.id)
	}
	delete(es.envs, e.id)
	for _, cp := range es.computers {
		if cp.envID == e.id {
			cp.envID, cp.buildID, cp.digests = "", "", nil
		}
	}
	return environments.Deleted{ID: e.id, Deleted: true}, nil
}

// shareEnvironment promotes a draft; sharing a shared one changes nothing.
func shareEnvironment(c *call, _ *noBody) (environments.Environment, *edge.Error) {
	e, herr := c.shareableEnv()
	if herr != nil {
		return environments.Environment{}, herr
	}
	if e.sharing != environments.SharingProject {
		e.sharing = environments.SharingProject
		e.updatedAt = c.s.now()
	}
	return envView(e, c.a.userID), nil
}
