package projectopstest

import (
	"errors"
	"net/http"
	"time"
)

// Defaults of the double's MCP layer.
const (
	// DefaultMCPTimeout bounds connecting to a saved server and each MCP
	// call; past it the API answers 504 TIMEOUT.
	DefaultMCPTimeout = 30 * time.Second
	// DefaultMCPIdleTimeout closes a kept stdio session unused for this
	// long.
	DefaultMCPIdleTimeout = 5 * time.Minute
	// DefaultMCPCloseTimeout bounds the teardown of one session; a session
	// whose close hangs longer is abandoned.
	DefaultMCPCloseTimeout = 2 * time.Second
)

// mcpOptions configure the MCP layer; zero values get the defaults.
type mcpOptions struct {
	timeout, idle, closeTimeout time.Duration
	httpClient                  *http.Client
}

// WithMCPTimeout sets how long the double waits for a saved MCP server to
// connect and initialize, and for each MCP call, before answering 504
// TIMEOUT (default DefaultMCPTimeout). Tests of silent servers set it low.
func WithMCPTimeout(d time.Duration) Option {
	return checked("WithMCPTimeout", d > 0, "duration must be positive", func(o *options) { o.mcp.timeout = d })
}

// WithMCPIdleTimeout sets how long a kept MCP session may stay unused
// before it is closed (default DefaultMCPIdleTimeout). Only stdio servers'
// sessions (one per user and saved server) are kept: every other server's
// session lasts one operation, or one eval run.
func WithMCPIdleTimeout(d time.Duration) Option {
	return checked("WithMCPIdleTimeout", d > 0, "duration must be positive", func(o *options) { o.mcp.idle = d })
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
