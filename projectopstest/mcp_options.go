package projectopstest

import (
	"errors"
	"net/http"
	"time"
)

// Defaults of the double's MCP layer.
const (
	// DefaultMCPTimeout bounds connecting to a saved server and each MCP
	// call; past it the API answers 504 TIMEOUT. Validate and doctor are
	// bounded by DefaultMCPDiagnosticTimeout instead.
	DefaultMCPTimeout = 30 * time.Second
	// DefaultMCPDiagnosticTimeout bounds validate and doctor instead:
	// their connect and doctor's listings, as the service bounds both
	// operations by its 10 s connect timeout.
	DefaultMCPDiagnosticTimeout = 10 * time.Second
	// DefaultMCPIdleTimeout closes a kept stdio session unused for this
	// long.
	DefaultMCPIdleTimeout = 5 * time.Minute
	// DefaultMCPCloseTimeout bounds the teardown of one session; a session
	// whose close hangs longer is abandoned, a stdio server's process
	// group killed (SIGKILL) and reaped.
	DefaultMCPCloseTimeout = 2 * time.Second
)

// mcpOptions configure the MCP layer; zero values get the defaults.
type mcpOptions struct {
	timeout, diagnostic, idle, closeTimeout time.Duration
	httpClient                              *http.Client
	pooled                                  bool
}

// WithMCPTimeout sets how long the double waits for a saved MCP server to
// connect and initialize, and for each MCP call, before answering 504
// TIMEOUT (default DefaultMCPTimeout). Tests of silent servers set it low.
// Validate and doctor have a timeout of their own (by default the
// shorter one): see WithMCPDiagnosticTimeout.
func WithMCPTimeout(d time.Duration) Option {
	return checked("WithMCPTimeout", d > 0, "duration must be positive", func(o *options) { o.mcp.timeout = d })
}

// WithMCPDiagnosticTimeout sets how long validate and doctor wait for a
// saved MCP server to connect and initialize, and doctor for each of its
// listings, before answering 504 TIMEOUT (doctor: a report saying so).
// The default is DefaultMCPDiagnosticTimeout, or WithMCPTimeout's duration
// when that is shorter, so a test that lowers WithMCPTimeout need not
// lower both.
func WithMCPDiagnosticTimeout(d time.Duration) Option {
	return checked("WithMCPDiagnosticTimeout", d > 0, "duration must be positive", func(o *options) { o.mcp.diagnostic = d })
}

// WithMCPIdleTimeout sets how long a kept MCP session may stay unused
// before it is closed (default DefaultMCPIdleTimeout). Only stdio servers'
// sessions (one per user and saved server) are kept, unless
// WithPooledMCPSessions keeps every server's: otherwise a session lasts
// one operation, or one eval run. d is real time, and under WithClock also
// time on the injected clock: a session whose last use plus d that clock
// has reached is closed when the double next handles a request or a
// helper such as MCPSessions is called (see Clock).
func WithMCPIdleTimeout(d time.Duration) Option {
	return checked("WithMCPIdleTimeout", d > 0, "duration must be positive", func(o *options) { o.mcp.idle = d })
}

// WithPooledMCPSessions keeps every saved server's MCP session, one per
// user and server, reused across requests and eval runs and closed after
// WithMCPIdleTimeout unused, as stdio servers' always are. A call then
// skips connect and initialize (about half the cost of a tools/call in
// process), but it departs from the service, which connects afresh for
// every operation: what a server keeps per session (a session resource, a
// counter, a log level) survives from one request into the next. For
// suites that make many calls to stateless servers.
func WithPooledMCPSessions() Option {
	return func(o *options) error {
		o.mcp.pooled = true
		return nil
	}
}

// WithMCPHTTPClient sets the HTTP client the double uses to reach HTTP and
// SSE MCP servers and OAuth token endpoints (default: a pooled client of
// its own, closed with the server).
func WithMCPHTTPClient(c *http.Client) Option {
	return func(o *options) error {
		if c == nil {
			return errors.New("projectopstest: WithMCPHTTPClient: nil client")
		}
		o.mcp.httpClient = c
		return nil
	}
}
