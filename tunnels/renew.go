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
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// RenewalResetAfter is how far apart two renewals must be for the second
// to start WithRenewals' count over, as the service's agent counts them:
// renewals an hour apart are a long-lived tunnel whose tokens expire in
// turn, while renewals within a minute of each other are a loop, which the
// cap ends. (A fresh token the edge refuses has not expired, so Serve
// returns ErrTokenRejected at its first refusal; the cap is met only when
// every new token already looks expired, as to a host clock an hour fast
// judging without the service's Date.)
const RenewalResetAfter = time.Minute

// expirySkew is how far the clock Serve judges expiry by may run behind
// the one the edge refused the token by: the service's Date is whole
// seconds, and a host without one reads its own clock. A token refused
// within it of its expiry is taken for expired.
const expirySkew = time.Minute

// renewal is Serve's answer to a connect token the relay refuses once the
// tunnel has been up: the token expires an hour after Create while the
// session it opened lives on, so the first reconnect after that hour is
// refused (close 4000), and the service's agent then creates the tunnel
// again and reconnects, as Serve does. The relay closes 4000 for a
// revoked or rotated token too (Close, or another host's Create): that
// one is not renewed, which would take the tunnel back from the host that
// took it over, or revive a tunnel closed on purpose. Which it was is
// decided in renew, from the servers listing: the server's url and the
// service's clock.
type renewal struct {
	max     int       // grants minted within RenewalResetAfter of each other; 0: none
	minted  int       // since the count last started over
	last    time.Time // when the last renewal was due, on the wall clock; zero: none yet
	pending bool
	refused error // the close 4000 the pending renewal answers
}

// due decides what err, the end of a dial or session with g, calls for
// at now, the host's clock: a renewal (then pending, for renew to check
// and mint), or stop with the error Serve returns (a grant Serve cannot
// renew, or the cap is reached). Neither: err is not a close 4000 that
// Serve may renew (none after a session, renewals off), and Serve handles
// it as any other end.
func (rn *renewal) due(err error, g *Grant, established bool, now time.Time) (renew bool, stop error) {
	if !errors.Is(err, ErrTokenRejected) || errors.Is(err, errPermanent) || // an HTTP refusal, not a close 4000
		!established || rn.max == 0 {
		return false, nil
	}
	switch {
	case g.ProjectID == "":
		return false, fmt.Errorf("%w: the grant has no ProjectID (a grant decoded from JSON has none: set it), so it is not renewed", err)
	case g.Name == "":
		return false, fmt.Errorf("%w: the grant has no Name, so it is not renewed", err)
	case g.ConnectTokenExpiresAt == 0:
		return false, fmt.Errorf("%w: the grant names no expiry, so it is not renewed", err)
	}
	// The wall clock: the monotonic one stops while the host sleeps, and
	// renewals an hour apart across a suspend would look a minute apart.
	now = now.Round(0)
	if !rn.last.IsZero() && now.Sub(rn.last) > RenewalResetAfter {
		rn.minted = 0
	}
	rn.last = now
	if rn.minted >= rn.max {
		return false, fmt.Errorf("tunnels: connect token rejected after renewing the grant %d times within %s of each other: %w",
			rn.max, RenewalResetAfter, err)
	}
	rn.minted++
	rn.pending, rn.refused = true, err
	return true, nil
}

// expired reports whether g's connect token has expired by now, allowing
// expirySkew; a grant without an expiry is not known to have.
func expired(g *Grant, now time.Time) bool {
	return g.ConnectTokenExpiresAt != 0 && !now.Before(g.ConnectTokenExpiresAt.Time().Add(-expirySkew))
}

// renew creates g's tunnel again, refused being the close 4000 of its
// token: a new connect token and a new secret, for the same server. It
// reads the project's servers listing first, and renews only when
//   - the grant's server still has the grant's name (Create goes by name
//     and repoints whatever server bears it: one renamed or deleted since
//     is not renewed, as Create would overwrite another server's url, a
//     stdio one's command line too, or make a new record);
//   - the server's url is still the grant's URL: another Create (another
//     host taking the tunnel over) rotates it, and renewing would take the
//     tunnel back;
//   - the token has expired on the service's clock, read from the
//     listing's Date (the host's clock when it has none): a token refused
//     before its expiry was revoked (Close).
//
// A tunnel closed through the API leaves the url as it was: closed while
// the host was offline past its token's expiry, it is renewed (revived),
// as the service's agent does. Only the server's name and project are
// sent; no error holds a URL, and none the new grant (transport errors
// carry no body of a success).
func (s *Service) renew(ctx context.Context, g *Grant, refused error, hostNow func() time.Time) (*Grant, error) {
	url, offset, err := s.lookup(ctx, g, hostNow)
	if err != nil {
		return nil, fmt.Errorf("tunnels: renewing the grant of server %s: %w", g.ServerID, err)
	}
	if url != g.URL { // compared, never printed: both hold a secret
		return nil, fmt.Errorf("%w: the tunnel was taken over (the server's url is no longer this grant's: "+
			"another Create rotated it, or it was changed), so it is not renewed", refused)
	}
	if offset.Abs() > maxClockOffset {
		return nil, fmt.Errorf("%w: the service's clock (by its Date) and this host's differ by %s, more than %s, "+
			"so whether the token expired cannot be told: check this host's clock", refused,
			offset.Abs().Round(time.Minute), maxClockOffset)
	}
	if !expired(g, hostNow().Add(offset)) {
		return nil, fmt.Errorf("%w though it had not expired: the tunnel was likely closed (or the relay refused a fresh token)", refused)
	}
	next, err := s.Create(ctx, g.ProjectID, CreateParams{Name: g.Name})
	if err != nil {
		return nil, fmt.Errorf("tunnels: renewing the grant of server %s: %w", g.ServerID, err)
	}
	if next.ServerID != g.ServerID {
		// Renamed between the lookup and Create: the name now names
		// another record, whose url Create has just pointed at a tunnel.
		// Revoke that tunnel (best effort, even when ctx has ended)
		// rather than serve the wrong server; the record itself stays
		// overwritten, as Close leaves a record as it is.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), renewCloseTimeout)
		defer cancel()
		_, _ = s.Close(cctx, g.ProjectID, next.ServerID)
		return nil, fmt.Errorf("tunnels: renewing the grant of server %s: the name %q now names server %s, "+
			"whose record Create repointed at a new tunnel (its url, or a stdio server's command line, "+
			"was overwritten and is not restored; the tunnel was revoked): %w",
			g.ServerID, g.Name, next.ServerID, errRenamed)
	}
	return next, nil
}

// renewCloseTimeout bounds the revoke of a tunnel a renewal pointed at
// another server.
const renewCloseTimeout = 10 * time.Second

// routeServers lists the project's saved servers (package servers reads
// it whole; renew needs only ids, names and urls, and this package links
// no other service).
const routeServers = "/projects/{projectId}/servers"

// namedServer is what renew reads of a saved server.
type namedServer struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	URL  string `json:"url"` // secret when it is a tunnel's
}

// lookup finds g's server as Create would, and returns its url and how
// far the service's clock is ahead of hostNow (by the Date of the
// listing's last page; zero without a usable one). The first server of
// the project's listing bearing g.Name (the one the service picks) must be
// g.ServerID: otherwise it returns errRenamed, or errServerGone when g's
// server no longer exists.
func (s *Service) lookup(ctx context.Context, g *Grant, hostNow func() time.Time) (url string, offset time.Duration, err error) {
	var meta option.Response
	lctx := transport.WithOptions(ctx, []option.RequestOption{option.WithResponseInto(&meta)})
	found := false
	for sv, err := range pager.Seq(lctx, "", func(ctx context.Context, cursor string) (*shared.Page[namedServer], error) {
		p, err := transport.Call[shared.Page[namedServer]](ctx, s.tr(), &transport.Request{Method: http.MethodGet,
			Route: routeServers, Params: []string{g.ProjectID}, Query: transport.Query("cursor", cursor)})
		if err == nil {
			offset = clockOffset(meta.Header, hostNow)
		}
		return p, err
	}) {
		if err != nil {
			return "", 0, err
		}
		if sv.Name == g.Name {
			if sv.ID != g.ServerID {
				return "", 0, fmt.Errorf("the name %q now names server %s: %w", g.Name, sv.ID, errRenamed)
			}
			return sv.URL, offset, nil
		}
		found = found || sv.ID == g.ServerID
	}
	if found {
		return "", 0, fmt.Errorf("it no longer has the name %q: %w", g.Name, errRenamed)
	}
	return "", 0, errServerGone
}

// maxClockOffset bounds the disagreement between the service's Date and
// the host's clock that renewal settles by the Date. Hosts drift by
// seconds to an hour (a VM after a sleep); further apart, one of the two
// is broken (a host clock kept in local time, a proxy's or a stale
// cache's Date) and which cannot be told: trusting either could revive a
// closed tunnel or end a live one, so Serve stops and says so.
const maxClockOffset = 2 * time.Hour

// clockOffset is how far the service's clock, by h's Date, is ahead of
// hostNow; zero when h has no Date that parses (the host clock decides).
func clockOffset(h http.Header, hostNow func() time.Time) time.Duration {
	d, err := http.ParseTime(h.Get("Date"))
	if err != nil {
		return 0
	}
	return d.Sub(hostNow().Round(0))
}

// errRenamed ends Serve: renewing by name would serve another server.
var errRenamed = errors.New("tunnels: the tunnel's server was renamed")

// errServerGone ends Serve: renewing by name would make a new server.
var errServerGone = errors.New("tunnels: the tunnel's server was deleted")

// renewFatal reports whether a failed renewal ends Serve: the service
// said no (a revoked API key, a deleted project), the server was renamed
// or deleted, or the refused token is not to be renewed (ErrTokenRejected:
// the tunnel was taken over, or the token had not expired). A network
// failure or a passing error (429, 5xx) is retried as a failed dial,
// within the reconnect budget: minting twice is harmless, as the grant
// being replaced is Serve's own and already refused.
func renewFatal(err error) bool {
	if errors.Is(err, errRenamed) || errors.Is(err, errServerGone) || errors.Is(err, ErrTokenRejected) {
		return true
	}
	e, ok := apierr.As(err)
	return ok && !e.Temporary()
}
