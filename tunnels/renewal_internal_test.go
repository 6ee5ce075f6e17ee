package tunnels

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
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

// servedThenExpired serves a grant whose first session is routed to, held
// for hold and closed 4000 (its token expired), and whose renewals all
// fail retryably (the API answers 503); it reports the renewals tried.
func servedThenExpired(t *testing.T, hold time.Duration) (*Service, *Grant, *atomic.Int32) {
	t.Helper()
	var dials, renewals atomic.Int32
	edge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if dials.Add(1) > 1 {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{tunnelwire.Subprotocol}})
		if err != nil {
			return
		}
		defer c.CloseNow()
		_ = c.Write(r.Context(), websocket.MessageText, tunnelwire.AppendHello(nil, "slug0001", tunnelwire.DefaultLimits))
		go func() { // reads the host's close until the session ends
			for {
				if _, _, err := c.Read(context.Background()); err != nil {
					return
				}
			}
		}()
		time.Sleep(hold)
		_ = c.Close(tunnelwire.CloseBadToken, "expired")
	}))
	t.Cleanup(edge.Close)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		renewals.Add(1)
		http.Error(w, `{"error":"down"}`, http.StatusServiceUnavailable)
	}))
	t.Cleanup(api.Close)
	s, err := NewService(option.WithBaseURL(api.URL), option.WithAPIKey("sk_test_0123456789"), option.WithMaxRetries(0),
		option.WithoutEnvironment())
	if err != nil {
		t.Fatal(err)
	}
	g := &Grant{ServerID: "srv_1", Name: "laptop", Slug: "slug0001", ProjectID: "prj_1",
		URL: "https://relay.example/t/slug0001/mcp?k=x", ConnectToken: "ct_x",
		ConnectTokenExpiresAt: shared.MillisOf(time.Now().Add(-time.Hour)),
		RelayWSURL:            "ws" + strings.TrimPrefix(edge.URL, "http") + "/agent"}
	return s, g, &renewals
}

// A tunnel that served, then had its token refused (close 4000) and
// cannot renew it, is one that came up: renewing skips the wait, and the
// reconnect was not told of the session, so with giveUp zero the failed
// renewals were judged by the first-connect bound counted from Serve's
// start and Serve gave up saying it never connected. It now retries them
// for ever, as any tunnel that came up.
func TestFailedRenewalsOfTunnelThatServedAreNotFirstConnect(t *testing.T) {
	t.Parallel()
	s, g, renewals := servedThenExpired(t, 300*time.Millisecond) // longer than firstFor
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	err := s.Serve(ctx, g, http.NotFoundHandler(), WithHTTPClient(http.DefaultClient),
		WithReconnect(10*time.Millisecond, 10*time.Millisecond, 0),
		func(o *serveOptions) { o.firstFor = 100 * time.Millisecond })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a tunnel that was routed to for 300ms, its renewals failing: Serve = %v, want it redialling until ctx ends (%d renewals)",
			err, renewals.Load())
	}
}

// With a positive giveUp, the run of failed renewals after a session is
// counted from the session's end: it was counted from Serve's start, so
// the first failed renewal of a tunnel that served longer than giveUp
// ended Serve, with no second try.
func TestFailedRenewalsCountFromTheSessionsEnd(t *testing.T) {
	t.Parallel()
	// Served longer than giveUp, which leaves a slow machine most of it
	// for the first renewal to fail in.
	s, g, renewals := servedThenExpired(t, time.Second)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second) // renewing for ever fails, not hangs
	defer cancel()
	err := s.Serve(ctx, g, http.NotFoundHandler(), WithHTTPClient(http.DefaultClient),
		WithReconnect(10*time.Millisecond, 10*time.Millisecond, 700*time.Millisecond))
	if err == nil || !strings.HasPrefix(err.Error(), "tunnels: gave up reconnecting: no session came up in ") ||
		!strings.Contains(err.Error(), " (window 700ms): ") {
		t.Errorf("Serve = %v, want it to give up reconnecting, saying how long it tried in its window", err)
	}
	if n := renewals.Load(); n < 2 {
		t.Errorf("%d renewals tried, want them retried within giveUp from the session's end", n)
	}
}
