package projectopstest

import (
	"github.com/projectops/projectops-go/projectopstest/internal/relay"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/projectops/projectops-go/internal/tunnelwire"
	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/tunnels"
)

// maxTunnelName is TunnelCreateRequest.name's maxLength.
const maxTunnelName = 128

func (s *Server) tunnelRoutes() {
	s.handle("POST /projects/{projectId}/tunnels", s.createTunnel)
	s.handle("POST /projects/{projectId}/tunnels/{serverId}/close", s.closeTunnel)
	s.relayRoutes()
}

// createTunnel registers (or repoints) the named server, rotates the
// tunnel's secret and token, disconnects the previous grant's session and
// answers the new grant.
func (s *Server) createTunnel(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID := r.PathValue("projectId")
	var p tunnels.CreateParams
	present, herr := s.decodeWrite(r, a, &p)
	if herr != nil {
		return herr
	}
	switch n := utf8.RuneCountInString(p.Name); {
	case !present["name"]:
		return errValidation("name", "name is required")
	case strings.TrimSpace(p.Name) == "":
		return errValidation("name", "name must not be blank")
	case n > maxTunnelName:
		return errValidation("name", "name must be at most 128 characters")
	}
	scheme, wsScheme := "http", "ws"
	if r.TLS != nil {
		scheme, wsScheme = "https", "wss"
	}

	s.mu.Lock()
	g, old, herr := s.mintTunnelLocked(a, projectID, p.Name, scheme+"://"+r.Host, wsScheme+"://"+r.Host)
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	if old != nil {
		old.Close(tunnelwire.CloseRevoked, "tunnel grant rotated")
	}
	s.dropMCPSessions(g.ServerID)
	writeJSON(w, http.StatusCreated, g)
	return nil
}

// mintTunnelLocked does createTunnel's work under Server.mu.
func (s *Server) mintTunnelLocked(a actor, projectID, name, origin, wsOrigin string) (*tunnels.Grant, *relay.Session, *httpError) {
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
			return nil, nil, errInternal()
		}
		sv = s.st.servers[id]
	} else {
		g.Existed = true
		g.PreviousTransportType = sv.transport
	}
	t := ts.byServer[sv.id]
	if t == nil {
		t = &tunnelRec{serverID: sv.id, projectID: projectID, slug: ts.newSlug()}
		ts.byServer[sv.id], ts.bySlug[t.slug] = t, t
	}
	secret, token, old := ts.rotate(t, s.now())
	public := origin + relayPublicPath + t.slug + relayPublicSuffix + "?k=" + secret
	if g.Existed && sv.url != "" && !sameTunnelURL(sv.url, public) {
		g.PreviousURL = sv.url
	}
	// Repoint the record at the tunnel: an http server now, whatever it
	// was; a stdio command line and environment no longer apply.
	sv.transport, sv.url = servers.TransportHTTP, public
	sv.command, sv.args, sv.env = "", nil, nil
	sv.backend = nil
	sv.updatedAt = s.now()

	g.ServerID, g.Slug, g.URL, g.ConnectToken = sv.id, t.slug, public, token
	g.ConnectTokenExpiresAt = wire.MillisOf(t.tokenExpiry)
	g.SecretVersion = t.version
	return g, old, nil
}

// closeTunnel revokes the grant; the server record is left as it is.
func (s *Server) closeTunnel(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	projectID, serverID := r.PathValue("projectId"), r.PathValue("serverId")
	s.mu.Lock()
	_, _, herr := s.st.projectFor(a, projectID, accessWrite)
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	if herr := rejectBody(r); herr != nil {
		return herr
	}
	s.mu.Lock()
	var old *relay.Session
	if _, _, herr = s.st.projectFor(a, projectID, accessWrite); herr == nil {
		sv := s.st.servers[serverID]
		t := s.st.tun.byServer[serverID]
		switch {
		case sv == nil || sv.projectID != projectID:
			herr = notFoundIn("Server")
		case t == nil:
			herr = notFoundIn("Tunnel")
		default:
			old = s.st.tun.revoke(t)
		}
	}
	s.mu.Unlock()
	if herr != nil {
		return herr
	}
	if old != nil {
		old.Close(tunnelwire.CloseRevoked, "tunnel revoked")
	}
	s.dropMCPSessions(serverID)
	writeJSON(w, http.StatusOK, tunnels.Closed{ServerID: serverID, Status: tunnels.StatusClosed})
	return nil
}

// dropMCPSessions forgets the MCP layer's pooled sessions to a server whose
// tunnel changed: they were opened on a URL that no longer works.
func (s *Server) dropMCPSessions(serverID string) {
	suffix := poolKey("", serverID)
	s.mcp.pool.Drop(func(key string) bool { return strings.HasSuffix(key, suffix) })
}
