package projectopstest

import (
	"encoding/json"
	"net/http"

	"github.com/projectops/projectops-go/projectopstest/internal/hostcfg"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/shared"
)

func hostRoutes(s *Server, rt *router) {
	rt.handle("GET /projects/{projectId}/hosts", route(s, op[none, pager.Page[hosts.Host]]{need: accessRead, apply: listHosts}))
	rt.handle("POST /projects/{projectId}/hosts", route(s, op[hosts.CreateParams, rawJSON]{status: http.StatusCreated,
		need: accessWrite, check: checkCreateHost, apply: createHost}))
	rt.handle("GET /projects/{projectId}/hosts/{hostId}", route(s, op[none, rawJSON]{need: accessRead, apply: getHost}))
	rt.handle("PATCH /projects/{projectId}/hosts/{hostId}", route(s, op[hosts.UpdateParams, rawJSON]{need: accessWrite,
		find: findHost, check: checkUpdateHost, apply: updateHost}))
	rt.handle("DELETE /projects/{projectId}/hosts/{hostId}", route(s, op[hosts.DeleteParams, hosts.Deleted]{need: accessWrite,
		find: findHost, apply: deleteHost}))
}

// host is the route's {hostId}, a host of the call's project; a host of
// another project reads as 404. Call with Server.mu held.
func (c *call) host() (*hostRec, *edge.Error) {
	h := c.s.st.hosts[c.path("hostId")]
	if h == nil || h.projectID != c.project.id {
		return nil, notFoundIn("Host")
	}
	return h, nil
}

// findHost requires the route's host to exist (see op.find).
func findHost(c *call) *edge.Error {
	_, herr := c.host()
	return herr
}

func listHosts(c *call, _ *none) (pager.Page[hosts.Host], *edge.Error) {
	page := pager.Page[hosts.Host]{Items: []hosts.Host{}}
	for _, h := range sortedByOrd(c.s.st.hosts, func(h *hostRec) int { return h.ord },
		func(h *hostRec) bool { return h.projectID == c.project.id }) {
		page.Items = append(page.Items, hostView(h))
	}
	return page, nil
}

// getHost answers the stored detail: immutable once built, so it is safe
// to write after unlocking.
func getHost(c *call, _ *none) (rawJSON, *edge.Error) {
	h, herr := c.host()
	if herr != nil {
		return nil, herr
	}
	return h.detail, nil
}

// hostCreate carries the canonical config from check to apply; on an
// update, whether the body's config pins a model and the config's own
// refusal, both decided in apply (the pin check, which needs the current
// host, comes first there, as in the service).
type hostCreate struct {
	cfg  map[string]any
	pins bool
	herr *edge.Error
}

// checkCreateHost resolves the template or config without the lock: it may
// consult the host catalog.
func checkCreateHost(c *call, p *hosts.CreateParams) *edge.Error {
	// A host pins its model: the service refuses a config without one
	// before anything else in it, and trims the one it keeps.
	cfg, herr := c.s.catalog.Resolve(c.r.Context(), hostcfg.Input{Name: p.Name, Template: string(p.Template), Theme: p.Theme,
		Config: json.RawMessage(p.Config), Present: c.present, PinModel: true})
	if herr != nil {
		return herr
	}
	if hostcfg.TrimModelID(cfg) == "" { // a live template without one (Resolve refused such a config)
		return edge.Validation("template", "Host template "+edge.Quote(wire.TrimJS(string(p.Template)))+
			" does not pin a model; pass an explicit config instead")
	}
	if herr := harnessNeedsComputer(cfg); herr != nil {
		return herr
	}
	c.scratch = hostCreate{cfg: cfg}
	return nil
}

// harnessNeedsComputer is the service's backend rule for every host
// write: a harness runs inside the host's computer, so a config with a
// harness and no computer is refused (its own client clears the harness
// when it detaches a computer, for that reason). The message is the
// double's; the backend's is not in the service's public source.
func harnessNeedsComputer(cfg map[string]any) *edge.Error {
	if _, harness := cfg["harness"]; harness && cfg["computer"] == nil {
		return edge.Validation("config.harness", "config.harness needs config.computer: a harness runs inside the host's computer")
	}
	return nil
}

func createHost(c *call, p *hosts.CreateParams) (rawJSON, *edge.Error) {
	h, herr := c.s.st.insertHost(c.a, c.project.id, "", wire.TrimJS(p.Name), c.scratch.(hostCreate).cfg)
	if herr != nil {
		return nil, herr
	}
	return h.detail, nil
}

// insertHost stores a host after checking (again, under the lock) the
// caller's write access and that the config's servers are the project's.
// A zero actor skips the access check (seeding).
func (st *state) insertHost(a actor, projectID, id, name string, cfg map[string]any) (*hostRec, *edge.Error) {
	if a != (actor{}) {
		if _, _, herr := st.projectFor(a, projectID, accessWrite); herr != nil {
			return nil, herr
		}
	}
	if herr := st.checkServerIDs(projectID, hostcfg.ServerIDs(cfg), "config.serverIds"); herr != nil {
		return nil, herr
	}
	hid, err := st.newID("hst", id)
	if err != nil {
		return nil, edge.Validation("id", err.Error())
	}
	now := st.now()
	h := &hostRec{id: hid, projectID: projectID, createdAt: now, updatedAt: now, ord: st.nextOrd()}
	setHost(h, name, cfg)
	st.hosts[hid] = h
	return h, nil
}

// checkServerIDs requires every id to be a saved server of the project.
func (st *state) checkServerIDs(projectID string, ids []string, field string) *edge.Error {
	for _, id := range ids {
		if sv := st.servers[id]; sv == nil || sv.projectID != projectID {
			// The spec's NOT_FOUND covers an unknown server, and the
			// service answers a run's unknown server with 404 too.
			return edge.NewError(shared.CodeNotFound, "Server "+edge.Quote(id)+" in "+field+" not found in this project",
				map[string]any{"field": field, "serverId": id})
		}
	}
	return nil
}

// checkUpdateHost validates the fields present without the lock.
func checkUpdateHost(c *call, p *hosts.UpdateParams) *edge.Error {
	if !c.present["name"] && !c.present["config"] {
		return edge.NewError(shared.CodeValidation, "Provide at least one of name or config",
			map[string]any{"fields": []string{"name", "config"}})
	}
	if c.present["name"] {
		// Trimmed and non-empty, as on create.
		if p.Name = wire.TrimJS(p.Name); p.Name == "" {
			return edge.Validation("name", "name must not be empty")
		}
	}
	if c.present["config"] {
		cfg, herr := hostcfg.CanonicalConfig("config", json.RawMessage(p.Config))
		if herr == nil {
			hostcfg.TrimModelID(cfg) // as on create
		}
		c.scratch = hostCreate{cfg: cfg, pins: hostcfg.PinsModel(json.RawMessage(p.Config)), herr: herr}
	}
	return nil
}

func updateHost(c *call, p *hosts.UpdateParams) (rawJSON, *edge.Error) {
	h, herr := c.host()
	if herr != nil {
		return nil, herr
	}
	cfg := h.config
	if c.present["config"] {
		up := c.scratch.(hostCreate)
		if pinned := hostcfg.ModelID(h.config); wire.TrimJS(pinned) != "" && !up.pins {
			// The service: a PATCH may not clear a host's model, and says
			// so before anything else wrong with the config.
			return nil, edge.NewError(shared.CodeValidation, "config.modelId is required: the host's model cannot be cleared",
				map[string]any{"field": "config.modelId", "modelId": pinned})
		}
		if up.herr != nil {
			return nil, up.herr
		}
		cfg = up.cfg
		if herr := harnessNeedsComputer(cfg); herr != nil {
			return nil, herr
		}
		if herr := c.s.st.checkServerIDs(c.project.id, hostcfg.ServerIDs(cfg), "config.serverIds"); herr != nil {
			return nil, herr
		}
	}
	name := h.name
	if c.present["name"] {
		name = p.Name
	}
	setHost(h, name, cfg)
	h.updatedAt = c.s.now()
	return h.detail, nil
}

// deleteHost refuses to delete a host still referenced by an eval suite or
// a chatbox unless force is set; forcing detaches those references.
func deleteHost(c *call, p *hosts.DeleteParams) (hosts.Deleted, *edge.Error) {
	h, herr := c.host()
	if herr != nil {
		return hosts.Deleted{}, herr
	}
	st := &c.s.st
	refs := st.hostReferences(h.id)
	if len(refs) > 0 && !p.Force {
		// The service answers its backend's refusal as every backend error
		// but not-found: 400 VALIDATION_ERROR (the reference lists no 409
		// for this route). details.references is the double's.
		return hosts.Deleted{}, edge.NewError(shared.CodeValidation, "Host is still referenced; pass force to delete it anyway",
			map[string]any{"field": "force", "references": refs})
	}
	for _, su := range st.suites {
		if su.hostID == h.id {
			su.hostID = ""
		}
	}
	for _, cb := range st.chatbox {
		if cb.hostID == h.id {
			// The chatbox keeps the settings it last showed.
			set := st.chatboxSettings(cb)
			cb.hostStyle, cb.modelID, cb.systemPrompt = set.hostStyle, set.modelID, set.systemPrompt
			cb.temperature, cb.requireToolApproval, cb.serverIDs = set.temperature, set.requireToolApproval, set.serverIDs
			cb.hostID = ""
		}
	}
	delete(st.hosts, h.id)
	return hosts.Deleted{ID: h.id, Deleted: true}, nil
}

// hostReference names one object that points at a host.
type hostReference struct {
	Type string `json:"type"` // "evalSuite" or "chatbox"
	ID   string `json:"id"`
	Name string `json:"name"`
}

// hostReferences lists what points at a host. Call with Server.mu held.
func (st *state) hostReferences(hostID string) []hostReference {
	var refs []hostReference
	for _, su := range sortedByOrd(st.suites, func(v *evalSuiteRec) int { return v.ord },
		func(v *evalSuiteRec) bool { return v.hostID == hostID }) {
		refs = append(refs, hostReference{Type: "evalSuite", ID: su.id, Name: su.name})
	}
	for _, cb := range sortedByOrd(st.chatbox, func(v *chatboxRec) int { return v.ord },
		func(v *chatboxRec) bool { return v.hostID == hostID }) {
		refs = append(refs, hostReference{Type: "chatbox", ID: cb.id, Name: cb.name})
	}
	return refs
}
