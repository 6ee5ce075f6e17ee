package projectopstest

import (
	"net/http"
	"net/url"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/projectopstest/internal/relay"

	"github.com/projectops/projectops-go/internal/tunnelwire"
	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/tunnels"
)

// maxTunnelName is TunnelCreateRequest.name's maxLength, which this route
// checks itself, as it checks the minLength (the contract check leaves
// both out): the service counts the name after trimming it, in UTF-16 code
// units.
const maxTunnelName = 128

func tunnelRoutes(s *Server, rt *router) {
	rt.handle("POST /projects/{projectId}/tunnels", route(s, op[tunnels.CreateParams, *tunnels.Grant]{
		status: http.StatusCreated, need: accessWrite, check: checkCreateTunnel, apply: createTunnel}))
	// The service's close reads no body: whatever is sent is ignored.
	rt.handle("POST /projects/{projectId}/tunnels/{serverId}/close", route(s, op[none, tunnels.Closed]{
		need: accessWrite, apply: closeTunnel}))
	relayRoutes(s, rt)
}

// checkCreateTunnel reads the name as the service's schema does: trimmed,
// then 1 to 128 characters as JavaScript counts them (UTF-16 code units).
// An empty name and one of white space alone get the schema's one message
// for the lower bound.
func checkCreateTunnel(c *call, p *tunnels.CreateParams) *edge.Error {
	p.Name = wire.TrimJS(p.Name)
	switch {
	case !c.present["name"]:
		return edge.Validation("name", "name is required")
	case p.Name == "":
		return edge.Validation("name", "name is required")
	case wire.UTF16Len(p.Name) > maxTunnelName:
		return edge.Validation("name", "name must be at most 128 characters")
	}
	return nil
}

// createTunnel registers (or repoints) the named server, rotates the
// tunnel's secret and token, disconnects the previous grant's session and
// answers the new grant.
func createTunnel(c *call, p *tunnels.CreateParams) (*tunnels.Grant, *edge.Error) {
	public, ws := requestOrigin(c.r)
	// The tunnel's URL names the host the request came in by: a Host no URL
	// can be made from (empty, or an unclosed IPv6 literal) is the
	// caller's to fix, not an internal failure.
	if u, err := url.Parse(public + relayPublicPath); err != nil || u.Host == "" {
		return nil, edge.Validation("", "The request's Host header does not form a URL the tunnel can be reached at")
	}
	s := c.s
	g, old, herr := s.mintTunnelLocked(c.a, c.project.id, p.Name, public, ws)
	if herr != nil {
		return nil, herr
	}
	c.after(func() {
		if old != nil {
			old.Close(tunnelwire.CloseRevoked, "tunnel grant rotated")
		}
		s.mcp.DropSessions(g.ServerID)
	})
	return g, nil
}

// mintTunnelLocked does createTunnel's work under Server.mu.
func (s *Server) mintTunnelLocked(a actor, projectID, name, origin, wsOrigin string) (*tunnels.Grant, *relay.Session, *edge.Error) {
	if _, _, herr := s.st.projectFor(a, projectID, accessWrite); herr != nil {
		return nil, nil, herr
	}
	ts := &s.st.tun
	ts.init()
	g := &tunnels.Grant{Name: name, RelayWSURL: wsOrigin + relayAgentPath}
	var sv *serverRec
	for _, c := range sortedByOrd(s.st.servers, func(v *serverRec) int { return v.ord },
		func(v *serverRec) bool { return v.projectID == projectID && v.name == name }) {
		sv = c
		break
	}
	if sv == nil {
		// A placeholder URL until the public one is known (it needs the
		// tunnel's slug, which needs the server id).
		id, err := s.addServerLocked(ServerSpec{ProjectID: projectID, Name: name,
			TransportType: servers.TransportHTTP, URL: origin + relayPublicPath})
		if err != nil {
			return nil, nil, edge.Internal()
		}
		sv = s.st.servers[id]
	} else {
		g.Existed = true
		g.PreviousTransportType = listedTransport(sv.transport)
	}
	t := ts.byServer[sv.id]
	if t == nil {
		t = &tunnelRec{serverID: sv.id, projectID: projectID, slug: ts.newSlug(), scope: tunnelScope(sv.id)}
		ts.byServer[sv.id], ts.bySlug[t.slug] = t, t
	}
	secret, token, old := ts.rotate(t, s.now())
	public := origin + relayPublicPath + t.slug + t.scope + "?k=" + secret
	if g.Existed && sv.url != "" && !sameTunnelURL(sv.url, public) {
		g.PreviousURL = sv.url
	}
	// Repoint the record at the tunnel: an http server now, whatever it
	// was, and enabled, as the service's route saves it; a stdio command
	// line and environment no longer apply.
	sv.transport, sv.url, sv.enabled = servers.TransportHTTP, public, true
	sv.command, sv.args, sv.env = "", nil, nil
	sv.backend = nil
	sv.updatedAt = s.now()

	g.ServerID, g.Slug, g.URL, g.ConnectToken = sv.id, t.slug, public, token
	g.ConnectTokenExpiresAt = wire.MillisOf(t.tokenExpiry)
	g.SecretVersion = float64(t.version)
	return g, old, nil
}

// closeTunnel revokes the grant; the server record is left as it is. A
// server of the project that has no grant (never had one) is closed too:
// the service's route refuses only a server outside the project, and
// revoking nothing changes nothing, as closing twice does.
func closeTunnel(c *call, _ *none) (tunnels.Closed, *edge.Error) {
	s, serverID := c.s, c.path("serverId")
	sv := s.st.servers[serverID]
	t := s.st.tun.byServer[serverID]
	switch {
	case sv == nil || sv.projectID != c.project.id:
		return tunnels.Closed{}, notFoundIn("Server")
	case t == nil:
		return tunnels.Closed{ServerID: serverID, Status: tunnels.StatusClosed}, nil
	}
	old := s.st.tun.revoke(t)
	c.after(func() {
		if old != nil {
			old.Close(tunnelwire.CloseRevoked, "tunnel revoked")
		}
		s.mcp.DropSessions(serverID)
	})
	return tunnels.Closed{ServerID: serverID, Status: tunnels.StatusClosed}, nil
}
