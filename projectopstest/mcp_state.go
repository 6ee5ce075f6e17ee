package projectopstest

import (
	"net/http"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/projectopstest/internal/mcpops"
)

// newMCPLayer builds the double's MCP layer (internal/mcpops) with o's
// settings, the defaults filling what o leaves zero.
func newMCPLayer(s *Server, o mcpOptions) *mcpops.Layer {
	cfg := mcpops.Config{Timeout: o.timeout, DiagnosticTimeout: o.diagnostic, Idle: o.idle, CloseTimeout: o.closeTimeout,
		KeepSessions: o.pooled, HTTPClient: o.httpClient, Now: s.now, Log: s.log,
		Wrap: func(c *http.Client) *http.Client { return routeSelf(c, selfTransport{s}) }}
	if s.dated {
		cfg.IdleClock = s.now // idle on it expires lazily (applyClock)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultMCPTimeout
	}
	if cfg.DiagnosticTimeout <= 0 {
		cfg.DiagnosticTimeout = min(DefaultMCPDiagnosticTimeout, cfg.Timeout)
	}
	if cfg.Idle <= 0 {
		cfg.Idle = DefaultMCPIdleTimeout
	}
	if cfg.CloseTimeout <= 0 {
		cfg.CloseTimeout = DefaultMCPCloseTimeout
	}
	return mcpops.New(s.ctx, cfg)
}

// MCPSessions reports how many MCP sessions the double holds open right
// now: the kept stdio sessions (one per user and saved stdio server, until
// idle expiry), one per server of each eval run in progress, and one per
// servers operation in progress, counted from the start of its connect
// (an operation's session stops counting before its answer, while it
// closes in the background, so none is counted once every request has
// returned). For tests of session lifetimes and idle expiry: under
// WithClock it first closes the kept sessions idle for the idle timeout on
// the injected clock, and times out the runs whose deadline it passed
// (see Clock).
func (s *Server) MCPSessions() int {
	s.checkClock()
	return s.mcp.Sessions()
}

// openServer resolves the project and server for a with need (a server of
// another project, or none, is 404).
func (s *Server) openServer(userID, projectID, serverID string, check func() *edge.Error) (*mcpops.Call, *edge.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if check != nil {
		if herr := check(); herr != nil {
			return nil, herr
		}
	}
	sv := s.st.servers[serverID]
	if sv == nil || sv.projectID != projectID {
		return nil, notFoundIn("Server")
	}
	c := mcpops.Call{UserID: userID, ProjectID: projectID, ServerID: serverID,
		UseOAuth: sv.useOAuth, URL: sv.url, Transport: sv.transport, Target: targetLocked(sv)}
	if b, _ := sv.backend.(*mcpBackend); b != nil {
		c.TokenURL = b.tokenURL
	}
	if sec := string(sv.clientSecret); sec != "" {
		c.SavedClientSecret = func() string { return sec }
	}
	return s.mcp.Open(c), nil
}

// sameServerURL reports whether a caller's serverUrl names the saved URL,
// ignoring trailing slashes, the case of scheme and host, and a tunnel's
// ?k= secret (see urlKey).
func sameServerURL(given, saved string) bool {
	norm := func(u string) string { return strings.TrimRight(urlKey(u), "/") }
	return norm(given) == norm(saved)
}
