package tunnels

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// The renewal window is judged on the wall clock: a time from time.Now
// carries a monotonic reading, which stops while the host sleeps, so
// renewals an hour apart across a suspend would count as a loop. The
// last renewal is kept without it (its String shows no "m=").
func TestRenewalWindowUsesTheWallClock(t *testing.T) {
	rn := renewal{max: 1}
	g := &Grant{ProjectID: "prj", Name: "local", ConnectTokenExpiresAt: 1}
	refused := fmt.Errorf("relay closed 4000: %w", ErrTokenRejected)
	if renew, stop := rn.due(refused, g, true, time.Now()); !renew || stop != nil {
		t.Fatalf("due = %v, %v; want a renewal", renew, stop)
	}
	if strings.Contains(rn.last.String(), "m=") {
		t.Errorf("the last renewal keeps a monotonic reading: %s", rn.last)
	}
}
