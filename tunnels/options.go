package tunnels

import (
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/projectops/projectops-go/internal/transport"
)

// Errors Serve stops with. Match them with errors.Is.
var (
	// ErrRevoked: the grant was revoked (Close) or rotated (a newer
	// Create); the relay disconnected the session. Create again to serve.
	ErrRevoked = errors.New("tunnels: grant revoked")
	// ErrTokenRejected: the relay refused the connect token (unknown,
	// rotated or expired). Create again for a fresh grant.
	ErrTokenRejected = errors.New("tunnels: connect token rejected")
	// ErrReplaced: another host connected with the same grant and took the
	// tunnel over.
	ErrReplaced = errors.New("tunnels: session replaced by another host")
)

// Reconnection defaults.
const (
	DefaultReconnectMin = 250 * time.Millisecond
	DefaultReconnectMax = 30 * time.Second
	// DefaultReconnectFor bounds how long Serve keeps failing to reconnect
	// before it gives up with the last error.
	DefaultReconnectFor = 5 * time.Minute
	// DefaultHeartbeat is how often Serve pings the relay (the service's
	// own agent's interval).
	DefaultHeartbeat = 25 * time.Second
)

// A ServeOption configures Serve.
type ServeOption func(*serveOptions)

type serveOptions struct {
	client       *http.Client
	log          *slog.Logger
	min, max     time.Duration
	giveUp       time.Duration
	onConnect    func()
	onDisconnect func(error)
	ping         time.Duration
}

func defaultServeOptions() serveOptions {
	return serveOptions{log: slog.New(slog.DiscardHandler), min: DefaultReconnectMin, max: DefaultReconnectMax,
		giveUp: DefaultReconnectFor, ping: DefaultHeartbeat}
}

// WithHTTPClient dials the relay with c instead of the client's own HTTP
// stack. Its Timeout, if any, applies to the handshake only. The SDK's
// redirect rules still apply (a copy of c is used; c is not changed): the
// connect token never follows a redirect to another origin. A nil c keeps
// the default.
func WithHTTPClient(c *http.Client) ServeOption {
	return func(o *serveOptions) {
		if c != nil {
			o.client = transport.GuardRedirects(c)
		}
	}
}

// WithLogger logs connections, drops and reconnects (never the grant's
// secrets or relayed content). Default: none; a nil l keeps it.
func WithLogger(l *slog.Logger) ServeOption {
	return func(o *serveOptions) {
		if l != nil {
			o.log = l
		}
	}
}

// WithReconnect sets the jittered exponential backoff between reconnect
// attempts (min, max) and how long consecutive failures may last before
// Serve gives up (giveUp; zero or negative retries forever). Defaults:
// DefaultReconnectMin, DefaultReconnectMax, DefaultReconnectFor. A
// non-positive min or a max below min keeps the default (the ceiling is
// never below min).
func WithReconnect(minDelay, maxDelay, giveUp time.Duration) ServeOption {
	return func(o *serveOptions) {
		if minDelay > 0 {
			o.min = minDelay
		}
		if maxDelay >= o.min {
			o.max = maxDelay
		}
		o.max = max(o.max, o.min) // a min above the default ceiling raises it
		o.giveUp = giveUp
	}
}

// OnConnect calls f each time a relay session is established and routed
// to (after every reconnect too). f must not block.
func OnConnect(f func()) ServeOption { return func(o *serveOptions) { o.onConnect = f } }

// OnDisconnect calls f with the cause each time a live session ends, the
// last one too (when Serve's context ends), so it pairs with OnConnect. f
// must not block.
func OnDisconnect(f func(error)) ServeOption { return func(o *serveOptions) { o.onDisconnect = f } }

// WithHeartbeat pings the relay every interval; a relay that has not
// answered a ping within two intervals is taken for gone (a connection a
// sleeping laptop or a NAT left half open) and Serve reconnects. Default:
// DefaultHeartbeat. Zero or negative sends no pings.
func WithHeartbeat(interval time.Duration) ServeOption {
	return func(o *serveOptions) { o.ping = max(interval, 0) }
}
