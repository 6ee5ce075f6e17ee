// Package mcpops is the double's MCP layer: the operations of the
// servers routes (list, call, get, read, validate, doctor, export, OAuth
// token import) carried out against the real MCP servers behind saved
// servers, through go-sdk sessions (mcpconn.Pool: a new one per operation,
// as the service connects afresh for each; one kept per user and saved
// stdio server; one per user and server for an eval run's scope) and the
// imported OAuth grants. It never sees the store: the caller copies
// what a Call needs out of the saved server's record, so no store lock is
// held while an MCP server is contacted.
package mcpops

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-cleanhttp"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
)

// Config configures a Layer. Every duration must be positive, but
// DiagnosticTimeout, which may be zero.
type Config struct {
	// Timeout bounds connecting and each MCP operation (then 504 TIMEOUT).
	Timeout time.Duration
	// DiagnosticTimeout replaces Timeout for validate and doctor, whose
	// connect and listings the service bounds by its shorter connect
	// timeout; zero leaves them Timeout.
	DiagnosticTimeout time.Duration
	// Idle closes a kept (stdio) session unused for this long.
	Idle time.Duration
	// CloseTimeout bounds the teardown of one session.
	CloseTimeout time.Duration
	// KeepSessions keeps every server's session, one per user and server,
	// as stdio ones are (projectopstest.WithPooledMCPSessions).
	KeepSessions bool
	// HTTPClient reaches HTTP and SSE servers and token endpoints; nil
	// means a pooled client of the layer's own, closed with it.
	HTTPClient *http.Client
	// Wrap, when set, adapts the HTTP client (the double routes its own
	// tunnel URLs in process through it).
	Wrap func(*http.Client) *http.Client
	// Now is the double's clock, for the timestamps of reports.
	Now func() time.Time
	// IdleClock, when set (an injected clock), also measures Idle: see
	// ExpireIdle. Real time measures it either way.
	IdleClock func() time.Time
	// Log receives debug records of failures (their kind, never their text).
	Log *slog.Logger
}

// Layer holds the pool and the grants. It has its own lock, never held
// across network calls.
type Layer struct {
	cfg    Config
	ctx    context.Context // the owner's: cancelled by its Close
	http   *http.Client
	owned  *http.Transport // the default client's transport, closed with the pool
	dialer *mcpconn.Dialer
	pool   *mcpconn.Pool

	mu     sync.Mutex
	tokens map[TokenKey]*grant
}

// New returns a layer whose sessions end with ctx.
func New(ctx context.Context, cfg Config) *Layer {
	m := &Layer{cfg: cfg, ctx: ctx, http: cfg.HTTPClient, tokens: map[TokenKey]*grant{}}
	if m.http == nil {
		m.owned = cleanhttp.DefaultPooledTransport()
		m.http = &http.Client{Transport: m.owned}
	}
	if cfg.Wrap != nil {
		m.http = cfg.Wrap(m.http)
	}
	m.dialer = mcpconn.NewDialer("projectopstest", "1.0.0", m.http)
	m.dialer.ConnectTimeout = cfg.Timeout
	m.dialer.Log = cfg.Log
	m.pool = mcpconn.NewPool(ctx, m.dialer, cfg.Idle, cfg.CloseTimeout)
	if cfg.KeepSessions {
		m.pool.KeepAll()
	}
	if cfg.IdleClock != nil {
		m.pool.UseClock(cfg.IdleClock)
	}
	return m
}

// ExpireIdle closes the kept sessions unused for Idle as of now, a
// reading of IdleClock, which the layer cannot watch: its owner calls
// this whenever it reads that clock for a request or a helper.
func (m *Layer) ExpireIdle(now time.Time) { m.pool.ExpireIdle(now) }

// Close tears the kept and eval runs' sessions down, bounded by the close
// timeout; a stdio server still running once it is spent is killed with
// its process group (on unix; elsewhere its process alone) and reaped
// before Close returns (mcpconn.CloseWithin).
func (m *Layer) Close() {
	m.pool.Close()
	if m.owned != nil {
		m.owned.CloseIdleConnections()
	}
}

// Sessions is how many MCP sessions are open: the kept stdio ones, those
// of eval runs in progress and those of operations in progress.
func (m *Layer) Sessions() int { return m.pool.Len() }

// Scope returns a child of ctx whose operations share one session per
// user and saved server (an eval run's: the service connects a run's
// servers once and disconnects them when it ends), and end, which closes
// those sessions in the background.
func (m *Layer) Scope(ctx context.Context) (context.Context, func()) { return m.pool.Scope(ctx) }

// DropSessions closes every user's kept session on a saved server, eval
// runs' included (its tunnel went away, or its configuration changed).
func (m *Layer) DropSessions(serverID string) {
	suffix := poolKey("", serverID)
	m.pool.Drop(func(k string) bool { return strings.HasSuffix(k, suffix) })
}

// poolKey names the pooled session of a user on a saved server.
func poolKey(userID, serverID string) string { return userID + "\x00" + serverID }
