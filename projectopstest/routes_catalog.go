package projectopstest

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/projectopstest/internal/views"
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

func catalogRoutes(s *Server, rt *router) {
	rt.handle("GET /me", route(s, op[none, views.Me]{apply: getMe}))
	rt.handle("GET /projects", route(s, op[none, pager.Page[views.Project]]{apply: listProjects}))
	rt.handle("GET /projects/{projectId}/servers", route(s, op[none, pager.Page[views.Server]]{need: accessRead, apply: listServers}))
	rt.handle("GET /chat-sessions", route(s, op[none, pager.Page[views.Session]]{apply: listChatSessions}))
	rt.handle("GET /harness/{harnessId}/builtin-tools", route(s, op[none, pager.Page[catalog.BuiltinTool]]{apply: listBuiltinTools}))
}

func getMe(c *call, _ *none) (views.Me, *edge.Error) {
	u := c.s.st.users[c.a.userID]
	if u == nil {
		return views.Me{}, edge.Unauthorized("Invalid API key")
	}
	me := catalog.Me{ID: u.id, Email: u.email, Name: u.name,
		CreatedAt: wire.MillisOf(u.createdAt), UpdatedAt: wire.MillisOf(u.updatedAt)}
	if org := c.s.st.orgs[c.a.orgID]; org != nil {
		me.Plan = org.plan
	}
	return views.MeOf(me), nil
}

// listProjects lists the projects the caller can access inside the key's
// organization; an organizationId filter naming any other organization
// matches nothing.
func listProjects(c *call, _ *none) (pager.Page[views.Project], *edge.Error) {
	page := pager.Page[views.Project]{Items: []views.Project{}}
	if org := edge.QueryOf(c.r).Get("organizationId"); org == "" || org == c.a.orgID {
		u := c.s.st.users[c.a.userID]
		for _, p := range sortedByOrd(c.s.st.projects, func(p *projectRec) int { return p.ord }, nil) {
			if role := roleIn(u, p); role != "" && p.orgID == c.a.orgID {
				page.Items = append(page.Items, projectView(p, role))
			}
		}
	}
	return page, nil
}

func listServers(c *call, _ *none) (pager.Page[views.Server], *edge.Error) {
	page := pager.Page[views.Server]{Items: []views.Server{}}
	for _, sv := range sortedByOrd(c.s.st.servers, func(v *serverRec) int { return v.ord },
		func(v *serverRec) bool { return v.projectID == c.project.id }) {
		page.Items = append(page.Items, serverView(sv))
	}
	return page, nil
}

func listBuiltinTools(c *call, _ *none) (pager.Page[catalog.BuiltinTool], *edge.Error) {
	tools, ok := builtinTools()[c.path("harnessId")]
	if !ok {
		return pager.Page[catalog.BuiltinTool]{}, edge.NotFound("Unknown harness")
	}
	return pager.Page[catalog.BuiltinTool]{Items: tools}, nil
}
