package tunnels

import (
	"context"
	"errors"
	"fmt"

	"github.com/projectops/projectops-go/internal/apierr"
)

// renewal is Serve's answer to a connect token the relay refuses once the
// tunnel has been up: the token expires an hour after Create while the
// session it opened lives on, so the first reconnect after that hour is
// refused (close 4000), and the service's agent then creates the tunnel
// again and reconnects, as Serve does.
type renewal struct {
	max     int // grants minted in a row without a healthy session between them; 0: none
	minted  int // since the last healthy session
	pending bool
}

// due reports whether err, the end of a dial or session with g, calls for
// a new grant, and whether one may still be minted; once true, the next
// mint is pending.
func (rn *renewal) due(err error, g *Grant, established bool) (renew, capped bool) {
	if !errors.Is(err, ErrTokenRejected) || !established || rn.max == 0 || g.ProjectID == "" || g.Name == "" {
		return false, false
	}
	if rn.minted >= rn.max {
		return false, true
	}
	rn.minted++
	rn.pending = true
	return true, false
}

// renew creates g's tunnel again: a new connect token and a new secret,
// for the same server. Only its server name and project are sent; the
// error never holds the new grant (transport errors carry no body of a
// success).
func (s *Service) renew(ctx context.Context, g *Grant) (*Grant, error) {
	next, err := s.Create(ctx, g.ProjectID, CreateParams{Name: g.Name})
	if err != nil {
		return nil, fmt.Errorf("tunnels: renewing the grant of server %s: %w", g.ServerID, err)
	}
	if next.ServerID != g.ServerID {
		// The server was renamed meanwhile: the name now names another
		// record, whose url Create has just pointed at a tunnel. Revoke
		// that tunnel (best effort) rather than serve the wrong server.
		_, _ = s.Close(ctx, g.ProjectID, next.ServerID)
		return nil, fmt.Errorf("tunnels: renewing the grant of server %s: the name %q now names server %s: %w",
			g.ServerID, g.Name, next.ServerID, errRenamed)
	}
	return next, nil
}

// errRenamed ends Serve: renewing by name would serve another server.
var errRenamed = errors.New("tunnels: the tunnel's server was renamed")

// renewFatal reports whether a failed renewal ends Serve: the service
// said no (a revoked API key, a deleted project) or the server was
// renamed. A network failure or a passing error (429, 5xx) is retried as
// a failed dial, within the reconnect budget: minting twice is harmless,
// as the grant being replaced is Serve's own and already refused.
func renewFatal(err error) bool {
	if errors.Is(err, errRenamed) {
		return true
	}
	e, ok := apierr.As(err)
	return ok && !e.Temporary()
}
