package tunnels

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/shared"
)

// RenewalResetAfter is how far apart two renewals must be for the second
// to start WithRenewals' count over, as the service's agent counts them:
// renewals an hour apart are a long-lived tunnel whose tokens expire in
// turn, while renewals within a minute of each other are a loop, which the
// cap ends. (A fresh token the edge refuses has not expired, so Serve
// returns ErrTokenRejected at its first refusal; the cap is met only when
// every new token already looks expired, as to a host clock an hour fast.)
const RenewalResetAfter = time.Minute

// expirySkew is how far the host's clock may run behind the service's: a
// token refused within it of its expiry is taken for expired.
const expirySkew = time.Minute

// renewal is Serve's answer to a connect token the relay refuses once the
// tunnel has been up: the token expires an hour after Create while the
// session it opened lives on, so the first reconnect after that hour is
// refused (close 4000), and the service's agent then creates the tunnel
// again and reconnects, as Serve does. The relay closes 4000 for a
// revoked or rotated token too (Close, or another host's Create): that
// one is not renewed, which would take the tunnel back from the host that
// took it over, or revive a tunnel closed on purpose.
type renewal struct {
	max     int       // grants minted within RenewalResetAfter of each other; 0: none
	minted  int       // since the count last started over
	last    time.Time // when the last grant was due; zero: none yet
	pending bool
}

// due decides what err, the end of a dial or session with g, calls for
// at now: renew (the next mint is then pending), or stop with the error
// Serve returns (the token was refused though it had not expired, or the
// cap is reached). Neither: err is not a close 4000 that Serve may renew
// (none after a session, renewals off, a grant without ProjectID or Name),
// and Serve handles it as any other end.
func (rn *renewal) due(err error, g *Grant, established bool, now time.Time) (renew bool, stop error) {
	if !errors.Is(err, ErrTokenRejected) || errors.Is(err, errPermanent) || // an HTTP refusal, not a close 4000
		!established || rn.max == 0 || g.ProjectID == "" || g.Name == "" {
		return false, nil
	}
	if !expired(g, now) {
		return false, fmt.Errorf("%w though it had not expired: the tunnel was closed, or another host took it over", err)
	}
	if !rn.last.IsZero() && now.Sub(rn.last) > RenewalResetAfter {
		rn.minted = 0
	}
	rn.last = now
	if rn.minted >= rn.max {
		return false, fmt.Errorf("tunnels: connect token rejected after renewing the grant %d times within %s of each other: %w",
			rn.max, RenewalResetAfter, err)
	}
	rn.minted++
	rn.pending = true
	return true, nil
}

// expired reports whether g's connect token has expired by now, allowing
// expirySkew; a grant without an expiry is not known to have.
func expired(g *Grant, now time.Time) bool {
	return g.ConnectTokenExpiresAt != 0 && !now.Before(g.ConnectTokenExpiresAt.Time().Add(-expirySkew))
}

// renew creates g's tunnel again: a new connect token and a new secret,
// for the same server. Create goes by name and repoints whatever server
// bears it, so the server is looked up first: one renamed (its name now
// free, or another server's) or deleted since is not renewed, as Create
// would overwrite another server's url (a stdio one's command line too)
// or make a new record. Only the server's name and project are sent; the
// error never holds the new grant (transport errors carry no body of a
// success).
func (s *Service) renew(ctx context.Context, g *Grant) (*Grant, error) {
	if err := s.stillNamed(ctx, g); err != nil {
		return nil, fmt.Errorf("tunnels: renewing the grant of server %s: %w", g.ServerID, err)
	}
	next, err := s.Create(ctx, g.ProjectID, CreateParams{Name: g.Name})
	if err != nil {
		return nil, fmt.Errorf("tunnels: renewing the grant of server %s: %w", g.ServerID, err)
	}
	if next.ServerID != g.ServerID {
		// Renamed between the lookup and Create: the name now names
		// another record, whose url Create has just pointed at a tunnel.
		// Revoke that tunnel (best effort, even when ctx has ended)
		// rather than serve the wrong server.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), renewCloseTimeout)
		defer cancel()
		_, _ = s.Close(cctx, g.ProjectID, next.ServerID)
		return nil, fmt.Errorf("tunnels: renewing the grant of server %s: the name %q now names server %s: %w",
			g.ServerID, g.Name, next.ServerID, errRenamed)
	}
	return next, nil
}

// renewCloseTimeout bounds the revoke of a tunnel a renewal pointed at
// another server.
const renewCloseTimeout = 10 * time.Second

// routeServers lists the project's saved servers (package servers reads
// it whole; renew needs only ids and names, and this package links no
// other service).
const routeServers = "/projects/{projectId}/servers"

// namedServer is what renew reads of a saved server.
type namedServer struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// stillNamed checks that Create with g.Name would repoint g's own server:
// the first server of the project's listing bearing that name (the one
// the service picks) is g.ServerID. Otherwise it returns errRenamed, or
// errServerGone when g's server no longer exists.
func (s *Service) stillNamed(ctx context.Context, g *Grant) error {
	found := false
	for sv, err := range pager.Seq(ctx, "", func(ctx context.Context, cursor string) (*shared.Page[namedServer], error) {
		return transport.Call[shared.Page[namedServer]](ctx, s.t, &transport.Request{Method: http.MethodGet,
			Route: routeServers, Params: []string{g.ProjectID}, Query: transport.Query("cursor", cursor)})
	}) {
		if err != nil {
			return err
		}
		if sv.Name == g.Name {
			if sv.ID != g.ServerID {
				return fmt.Errorf("the name %q now names server %s: %w", g.Name, sv.ID, errRenamed)
			}
			return nil
		}
		found = found || sv.ID == g.ServerID
	}
	if found {
		return fmt.Errorf("it no longer has the name %q: %w", g.Name, errRenamed)
	}
	return errServerGone
}

// errRenamed ends Serve: renewing by name would serve another server.
var errRenamed = errors.New("tunnels: the tunnel's server was renamed")

// errServerGone ends Serve: renewing by name would make a new server.
var errServerGone = errors.New("tunnels: the tunnel's server was deleted")

// renewFatal reports whether a failed renewal ends Serve: the service
// said no (a revoked API key, a deleted project) or the server was
// renamed or deleted. A network failure or a passing error (429, 5xx) is retried as
// a failed dial, within the reconnect budget: minting twice is harmless,
// as the grant being replaced is Serve's own and already refused.
func renewFatal(err error) bool {
	if errors.Is(err, errRenamed) || errors.Is(err, errServerGone) {
		return true
	}
	e, ok := apierr.As(err)
	return ok && !e.Temporary()
}
