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
	// rotated, revoked or expired) on the first dial, or after the tunnel
	// was up when Serve does not renew the grant (see WithRenewals):
	// another host took the tunnel over (the server's url was rotated by
	// another Create), the token had not expired on the service's clock
	// (the tunnel was closed), renewing is off (WithRenewals(0)), the
	// grant has no ProjectID, Name or expiry, or renewing has reached its
	// cap. The error says which. Create again for a fresh grant.
	ErrTokenRejected = errors.New("tunnels: connect token rejected")
	// ErrReplaced: another host connected with the same grant and took the
	// tunnel over.
	ErrReplaced = errors.New("tunnels: session replaced by another host")
)

// Reconnection defaults.
const (
	DefaultReconnectMin = 250 * time.Millisecond
	DefaultReconnectMax = 30 * time.Second
	// DefaultReconnectFor is WithReconnect's default giveUp: zero, which
	// bounds only the failures before the first session (see
	// DefaultFirstConnectFor) and never gives up once a session has been
	// routed to, as the service's agent redials a dropped tunnel for as
	// long as it runs (a host offline for an hour comes back on its own).
	DefaultReconnectFor time.Duration = 0
	// DefaultFirstConnectFor is the window in which, with WithReconnect's
	// giveUp zero (the default), a first session must come up: Serve
	// retries until it is spent, then gives up, saying how long it tried
	// (the last attempt may overrun it by up to the connect timeout). A
	// wrong or unreachable relay (or one that
	// never says hello) ends Serve rather than holding it for good. The
	// service's agent gives up on its first connect after 15 s; this
	// leaves a relay that is briefly down the time to come back.
	DefaultFirstConnectFor = 5 * time.Minute
	// DefaultConnectTimeout bounds each connection attempt, from the dial
	// to the edge's hello, the upgrade included: a relay that takes the
	// connection and then says nothing fails the attempt (ErrConnectTimeout)
	// instead of holding Serve. The value is the service's agent's
	// CONNECT_TIMEOUT_MS; bounding each attempt, redials included, is this
	// SDK's choice (the agent times its first connect as a whole, and its
	// redials after a drop not at all).
	DefaultConnectTimeout = 15 * time.Second
	// DefaultHeartbeat is how often Serve pings the relay (the service's
	// own agent's interval).
	DefaultHeartbeat = 25 * time.Second
	// DefaultRenewals is how many grants Serve mints to replace expired
	// connect tokens within RenewalResetAfter of each other (the service's
	// agent's cap).
	DefaultRenewals = 3
)

// A ServeOption configures Serve.
type ServeOption func(*serveOptions)

type serveOptions struct {
	client         *http.Client
	log            *slog.Logger
	min, max       time.Duration
	giveUp         time.Duration // negative: never; zero: firstFor before a session was routed to, never after
	firstFor       time.Duration
	connect        time.Duration // per attempt, dial to hello
	onConnect      func()
	onDisconnect   func(error)
	onConnectError func(error, time.Duration)
	ping           time.Duration
	renewals       int              // 0: a rejected token ends Serve
	onGrant        func(*Grant)     // told of each renewed grant
	now            func() time.Time // tells whether a refused token expired, and how far apart renewals are
}

func defaultServeOptions() serveOptions {
	return serveOptions{log: slog.New(slog.DiscardHandler), min: DefaultReconnectMin, max: DefaultReconnectMax,
		giveUp: DefaultReconnectFor, firstFor: DefaultFirstConnectFor, connect: DefaultConnectTimeout,
		ping: DefaultHeartbeat, renewals: DefaultRenewals, now: time.Now}
}

// WithHTTPClient dials the relay with c instead of the client's own HTTP
// stack. Its Timeout, if any, applies to the handshake only (each
// attempt is bounded by WithConnectTimeout anyway). The SDK's
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

// WithConnectTimeout bounds each connection attempt, the first dial and
// every reconnect, from the dial to the edge's hello (the upgrade
// included). An attempt that runs out fails like any other dial, with an
// error matching ErrConnectTimeout: it is retried with backoff (see
// WithReconnect). Default: DefaultConnectTimeout; zero or negative keeps
// it.
func WithConnectTimeout(d time.Duration) ServeOption {
	return func(o *serveOptions) {
		if d > 0 {
			o.connect = d
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
// attempts (min, max) and giveUp, the window in which a run of consecutive
// failed attempts (dials that fail before the edge's hello, and failed
// renewals of the grant) must end in a session (one routed to, the edge's
// hello) before Serve gives up with the last error. A wait is cut short
// to end with the window, and Serve retries until the window is spent, so
// it gives up after the window, not within it: by up to one attempt, at
// most the connect timeout (see WithConnectTimeout). A run starts when
// Serve does, or with the first redial after a session routed to. Positive
// giveUp bounds every run, before and after the first session. Zero, the
// default, bounds the run before the first session by
// DefaultFirstConnectFor and the later ones not at all. Negative retries
// for ever, before and after the first session (a daemon started while
// the network is down). Defaults: DefaultReconnectMin,
// DefaultReconnectMax, DefaultReconnectFor. A non-positive min or a max
// below min keeps the default (the ceiling is never below min).
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

// OnConnectError calls f each time an attempt to connect fails (the
// relay unreachable, refusing, or silent past the connect timeout), or a
// renewal of the grant fails (see WithRenewals; an API call, not a dial:
// err says which), and Serve is about to retry it after retryIn: without
// it a tunnel started while the relay is down, or one whose renewals keep
// failing, waits without a word. An attempt that fails for good is
// Serve's error instead. f is not called after Serve has seen its context
// end.
// f must not block.
func OnConnectError(f func(err error, retryIn time.Duration)) ServeOption {
	return func(o *serveOptions) { o.onConnectError = f }
}

// WithHeartbeat pings the relay every interval; a relay that has not
// answered a ping within two intervals is taken for gone (a connection a
// sleeping laptop or a NAT left half open) and Serve reconnects. Default:
// DefaultHeartbeat. Zero or negative sends no pings.
func WithHeartbeat(interval time.Duration) ServeOption {
	return func(o *serveOptions) { o.ping = max(interval, 0) }
}

// WithRenewals sets how many grants Serve may mint within
// RenewalResetAfter of each other when the relay refuses (close 4000) the
// connect token of a tunnel that was up because it expired: the token
// expires an hour after Create (a live session is not cut), so the first
// reconnect after that hour is refused, and Serve creates the tunnel again
// for the same server, as the service's agent does (a new token, and a
// new secret: see OnGrant). Renewals further apart than RenewalResetAfter
// (on the wall clock) start the count over; the n+1st within it ends
// Serve with ErrTokenRejected.
//
// The relay closes 4000 for a revoked or rotated token too, so Serve
// first reads the project's servers and renews only when the grant's
// server still has the grant's name (see Serve), its url is still the
// grant's URL (another Create, another host taking the tunnel over,
// rotates it), and the token has expired on the service's clock: from a
// minute before ConnectTokenExpiresAt on, by the Date of the servers
// listing (the host's clock when it has none): with a Date, a host clock
// running up to two hours slow or fast is no matter; further apart, the
// Date or the host's clock is broken and which cannot be told, so Serve
// returns ErrTokenRejected saying to check the host's clock. Otherwise
// Serve returns ErrTokenRejected saying the tunnel was taken over, or
// that the token had not expired (the tunnel was likely closed). So it does for a token
// refused on the first dial (the caller's to fix) and for a grant without
// a ProjectID (one decoded from JSON), a Name or ConnectTokenExpiresAt,
// each said so. An upgrade the relay refuses with HTTP 401 or 403 is no
// close 4000: that one is retried like a drop once the tunnel was up.
// What Serve cannot tell: Close leaves the server's url as it is, so a
// tunnel closed while its host was offline past its token's expiry is
// renewed (revived), as the service's agent does.
// Default: DefaultRenewals. Zero or negative never renews.
func WithRenewals(n int) ServeOption { return func(o *serveOptions) { o.renewals = max(n, 0) } }

// OnGrant calls f with each grant Serve minted to replace one whose
// connect token expired on the service's clock, for a server that still
// has the grant's name and url (see WithRenewals). The grant it replaces is
// revoked by then (Serve never changes the one it was given): the new
// grant's URL, with its rotated secret, is the tunnel's public URL (also
// saved as the server's url). f must not block.
func OnGrant(f func(*Grant)) ServeOption { return func(o *serveOptions) { o.onGrant = f } }
