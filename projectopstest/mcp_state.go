package projectopstest

import (
	"context"
	"net/http"
	"sync"

	"github.com/hashicorp/go-cleanhttp"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
)

// mcpState is the double's MCP layer: a pool of live sessions per (user,
// saved server) and the imported OAuth tokens. It has its own lock, never
// held across network calls; Server.mu is never held while it is used.
type mcpState struct {
	opts   mcpOptions
	ctx    context.Context // the server's: cancelled by Close
	http   *http.Client
	owned  *http.Transport // the default client's transport, closed with the pool
	dialer *mcpconn.Dialer
	pool   *mcpconn.Pool

	mu     sync.Mutex
	tokens map[tokenKey]*tokenRec
}

func newMCPState(ctx context.Context, o mcpOptions) *mcpState {
	if o.timeout <= 0 {
		o.timeout = DefaultMCPTimeout
	}
	if o.idle <= 0 {
		o.idle = DefaultMCPIdleTimeout
	}
	if o.closeTimeout <= 0 {
		o.closeTimeout = DefaultMCPCloseTimeout
	}
	m := &mcpState{opts: o, ctx: ctx, http: o.httpClient, tokens: map[tokenKey]*tokenRec{}}
	if m.http == nil {
		m.owned = cleanhttp.DefaultPooledTransport()
		m.http = &http.Client{Transport: m.owned}
	}
	m.http = routeSelf(m.http, o.self)
	m.dialer = mcpconn.NewDialer("projectopstest", "1.0.0", m.http)
	m.dialer.ConnectTimeout = o.timeout
	m.pool = mcpconn.NewPool(ctx, m.dialer, o.idle, o.closeTimeout)
	return m
}

// close tears the pooled sessions down, bounded by the close timeout.
func (m *mcpState) close() {
	m.pool.Close()
	if m.owned != nil {
		m.owned.CloseIdleConnections()
	}
}

// poolKey names the pooled session of a user on a saved server.
func poolKey(userID, serverID string) string { return userID + "\x00" + serverID }

// MCPSessions reports how many MCP sessions the double holds open in its
// pool (one per user and saved server in use), for tests of pooling and
// idle expiry.
func (s *Server) MCPSessions() int { return s.mcp.pool.Len() }
