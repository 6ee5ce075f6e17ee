package tunnels

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/projectops/projectops-go/internal/apierr"
)

// Serve hosts the tunnel of g: it connects to the grant's relay and serves
// every request that arrives at the public URL with h, concurrently,
// streaming responses (Flush is honoured, so SSE works). It dials with the
// client's own HTTP stack, so it works over the double's in-process
// transport too.
//
// Network drops are retried with jittered exponential backoff (see
// WithReconnect), and so is an attempt that is not routed to (the edge's
// hello) within the connect timeout from its dial, the first one too: a
// relay that never answers the upgrade, or never says hello, does not hold
// Serve (see WithConnectTimeout). Once a session has been routed to, a
// connect token the relay refuses with close 4000 because it expired (an
// hour after Create) is replaced: Serve reads the project's servers, checks
// that the grant's server still bears the grant's name, that its url is
// still the grant's (not rotated by another Create) and that the token has
// expired on the service's clock (by the listing's Date), creates the
// tunnel again for it and reconnects (see WithRenewals and OnGrant; g
// itself is not changed), and an upgrade the edge refuses with a 4xx, 401
// and 403 included (a load balancer during a deploy), is retried like a
// drop. Before that, both end Serve at once: the grant or its relay URL is
// wrong. Serve returns ctx's error when ctx ends, ErrRevoked when the grant
// is revoked or rotated, ErrTokenRejected when the relay refuses the
// connect token on the first dial, after the tunnel was up when it is not
// renewed (taken over, or closed before it expired, while the host could
// not be told; a grant without ProjectID, Name or expiry: see WithRenewals)
// or once renewing has reached its cap, ErrReplaced when another host takes
// over, the service's refusal to renew the grant (a *projectops.Error: a
// revoked key, a deleted project), an error saying the tunnel's server was
// renamed or deleted since (renewing by name would repoint another server
// or make a new one), a dial or renewal error the client's
// http.RoundTripper marks permanent at once, or the last error once no
// session has come up in the run of failed attempts WithReconnect allows
// (Serve gives up once its window is spent, which the last attempt may
// overrun by up to the connect timeout): by default, after
// DefaultFirstConnectFor when no session was ever routed to, and never
// once one was.
// Permanent means wrapped by github.com/cenkalti/backoff/v4's Permanent (a
// *backoff.PermanentError of v4; v5's PermanentError, another type, does
// not match and is retried as a drop). Serve trusts the mark: a transport
// that wraps a transient error in it ends Serve at once, with no reconnect.
// The double's in-process transport marks only its closed state so
// (projectopstest.ErrServerClosed, once it is closed). Requests in flight
// when the session ends see their context cancelled, and their responses
// are cut short.
//
// Neither reconnecting nor Serve's return waits for a handler that ignores
// its request's context: Serve waits briefly (half a second at most) for
// the handlers still running to return, then returns anyway. A handler
// left running writes to nothing (its writes fail); stopping it is the
// handler's business, as its context said.
func (s *Service) Serve(ctx context.Context, g *Grant, h http.Handler, opts ...ServeOption) error {
	switch {
	case ctx == nil:
		return apierr.NilContext()
	case g == nil || g.RelayWSURL == "" || g.ConnectToken == "":
		return apierr.Invalid("grant", "tunnels: Serve needs a grant with a relay URL and connect token (from Create)")
	case h == nil:
		return apierr.Invalid("handler", "tunnels: Serve needs a handler")
	}
	// A zero Service (or a zero Client's nil one) has no transport: refused
	// as every other method refuses it, before any option could give it a
	// client to dial with (WithHTTPClient), so nothing is sent.
	hc := s.tr().HTTPClient()
	if hc == nil {
		return apierr.Invalid("client", "unconfigured client: build it with projectops.NewClient or tunnels.NewService")
	}
	o := defaultServeOptions()
	o.client = hc
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	rc := newReconnect(&o, time.Now())
	rn := renewal{max: o.renewals}
	var handlers handlerSet
	defer waitBriefly(&handlers.wg, closeGrace)
	for {
		var end sessionEnd
		minting := rn.pending
		if minting {
			next, err := s.renew(ctx, g, rn.refused, o.now)
			if err == nil {
				g, rn.pending, minting = next, false, false
				o.log.InfoContext(ctx, "tunnel grant renewed", "serverId", g.ServerID, "slug", g.Slug, "url", g.PublicURL())
				if o.onGrant != nil {
					o.onGrant(g)
				}
			}
			end.err = err
		}
		if !minting {
			end = serveOnce(ctx, g, h, &o, &handlers)
		}
		err := end.err
		if ctx.Err() != nil {
			return ctx.Err()
		}
		now := time.Now()
		// Before anything that may skip the wait (a renewal): whether a
		// session was routed to (the grant and URL were good), and when
		// the run of failures starts, are rc's alone.
		rc.saw(end, now)
		var renew bool
		var stop error
		if !minting {
			renew, stop = rn.due(err, g, rc.routed, o.now())
		}
		var perm *backoff.PermanentError // the client's transport says no retry helps (a closed double)
		switch {
		case minting: // the renewal failed
			if renewFatal(err) || errors.As(err, &perm) {
				return err
			}
		case renew:
			o.log.WarnContext(ctx, "tunnel connect token refused; renewing the grant if it expired", "serverId", g.ServerID,
				"slug", g.Slug, "attempt", rn.minted)
			continue // at once, as the service's agent does
		case stop != nil:
			return stop
		case errors.Is(err, errPermanent) && rc.routed:
			// The edge refused the upgrade after the tunnel was up (a load
			// balancer between deploys, not a wrong URL; a 401 or 403
			// too, which is no close 4000): retried within the reconnect
			// budget, as the service's agent retries it.
		case errors.Is(err, ErrRevoked) || errors.Is(err, ErrTokenRejected) || errors.Is(err, ErrReplaced) ||
			errors.Is(err, errPermanent) || errors.As(err, &perm):
			return err
		}
		d := rc.after(end, now)
		if d == backoff.Stop {
			// The run's window is spent, by up to the last attempt (at
			// most the connect timeout): the error says how long it took,
			// and the last cause may be a withheld hello as well as a
			// relay never reached.
			what, spent := "gave up", rc.spent(now)
			if rc.routed {
				what = "gave up reconnecting"
			}
			if spent >= time.Millisecond {
				spent = spent.Round(time.Millisecond) // 5m0.4s, not to the nanosecond
			}
			return fmt.Errorf("tunnels: %s: no session came up in %s (window %s): %w", what, spent, rc.limit(), err)
		}
		o.log.WarnContext(ctx, "tunnel disconnected; reconnecting", "serverId", g.ServerID,
			"slug", g.Slug, "in", d, "error", err)
		// A live session's end is OnDisconnect's; a failed renewal is told
		// too. Not once Serve is stopping: ctx may have ended since it was
		// looked at.
		if end.ready.IsZero() && o.onConnectError != nil && ctx.Err() == nil {
			o.onConnectError(err, d)
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// waitBriefly waits for wg at most d: handlers whose context ended
// return at once, and one that does not is not waited for.
func waitBriefly(wg *sync.WaitGroup, d time.Duration) {
	done := make(chan struct{})
	go func() { // ends when the handlers do
		wg.Wait()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

// errPermanent marks handshake refusals that retrying cannot fix before
// the tunnel was ever up.
var errPermanent = errors.New("tunnels: relay refused the connection")

// upgradeRefused is the edge's HTTP refusal of the upgrade with status
// (a 4xx): errPermanent, and ErrTokenRejected too for a 401 or 403. It is
// never renewed: the edge refuses an expired token with close 4000, after
// the upgrade.
type upgradeRefused int

func (u upgradeRefused) Error() string {
	if u.token() {
		return fmt.Sprintf("%v (HTTP %d)", ErrTokenRejected, int(u))
	}
	return fmt.Sprintf("%v (HTTP %d)", errPermanent, int(u))
}

func (u upgradeRefused) token() bool {
	return u == http.StatusUnauthorized || u == http.StatusForbidden
}

// Is matches errPermanent, and ErrTokenRejected for a 401 or 403.
func (u upgradeRefused) Is(target error) bool {
	return target == errPermanent || target == ErrTokenRejected && u.token()
}

// serveOnce dials and runs one session, and reports how far it got.
func serveOnce(ctx context.Context, g *Grant, h http.Handler, o *serveOptions, handlers *handlerSet) sessionEnd {
	cd := startConnect(ctx, o.connect)
	defer cd.end()
	conn, cork, err := dial(cd.ctx, g, o.client)
	if err != nil {
		if terr := cd.err(false); terr != nil {
			err = terr // not the dial's own error, which quotes the relay URL
		}
		return sessionEnd{err: err}
	}
	sess := newSession(conn, cork, h, o.log, handlers)
	sess.serverID, sess.secret, sess.ping = g.ServerID, grantSecret(g), o.ping
	readyCh := make(chan struct{})
	var readyAt time.Time
	sess.onReady = func() {
		if !cd.routed() {
			return // the hello came after the deadline: the session is closing
		}
		readyAt = time.Now()
		close(readyCh)
		o.log.InfoContext(ctx, "tunnel connected", "serverId", g.ServerID, "slug", g.Slug)
		if o.onConnect != nil {
			o.onConnect()
		}
	}
	// The session runs under the attempt's context: running out of the
	// connect deadline before the hello closes it.
	err = sess.run(withPublicScheme(cd.ctx, g)) // its requests' X-Forwarded-Proto, for ProxyTo
	if terr := cd.err(true); terr != nil && ctx.Err() == nil {
		err = terr
	}
	end := sessionEnd{served: sess.served, err: err}
	select {
	case <-readyCh:
		end.ready = readyAt
		if o.onDisconnect != nil {
			cause := err
			if ctx.Err() != nil { // the last one: Serve is stopping
				cause = ctx.Err()
			}
			o.onDisconnect(cause)
		}
	default:
	}
	return end
}
