package tunnels_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
	"github.com/projectops/projectops-go/shared"
	"github.com/projectops/projectops-go/tunnels"
)

// refusingEdge answers the dials listed in refuse with status (a 404: a
// load balancer during an edge deploy) and routes the others: a session the
// first time, closed by the edge at once (it goes away), and held until
// the test ends after that.
func refusingEdge(t *testing.T, status int, refuse func(n int32) bool) (*tunnels.Grant, *atomic.Int32) {
	t.Helper()
	var dials atomic.Int32
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := dials.Add(1)
		if refuse(n) {
			http.Error(w, http.StatusText(status), status)
			return
		}
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{tunnelwire.Subprotocol}})
		if err != nil {
			return
		}
		defer c.CloseNow()
		if c.Write(r.Context(), websocket.MessageText, tunnelwire.AppendHello(nil, "slug0001", tunnelwire.DefaultLimits)) != nil {
			return
		}
		if n == 1 {
			_ = c.Close(websocket.StatusGoingAway, "edge going away")
			return
		}
		go func() { // reads the host's pings and close until the session ends
			for {
				if _, _, err := c.Read(context.Background()); err != nil {
					return
				}
			}
		}()
		<-done
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) }) // before Close, which waits for the handlers
	return &tunnels.Grant{ServerID: "srv_1", RelayWSURL: "ws" + strings.TrimPrefix(srv.URL, "http"), ConnectToken: "ct_x"}, &dials
}

// Once the tunnel has been up, an upgrade the edge refuses with a 404 is
// retried like a drop, as the service's agent retries every dial that does
// not end in close 4000, 4001 or 4002.
func TestServeRetriesRefusedDialAfterSession(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g, dials := refusingEdge(t, http.StatusNotFound, func(n int32) bool { return n == 2 })
	connected := make(chan struct{}, 4)
	serveOn(t, f, g, echo, tunnels.WithReconnect(10*time.Millisecond, 50*time.Millisecond, time.Minute),
		tunnels.OnConnect(func() { connected <- struct{}{} }))
	for i := range 2 {
		select {
		case <-connected:
		case <-time.After(10 * time.Second):
			t.Fatalf("connect %d never came (dials %d)", i+1, dials.Load())
		}
	}
}

// Before the tunnel was ever up, a refused upgrade is a wrong relay URL:
// Serve returns at once with a clear error, even when told to retry
// for ever.
func TestServeFailsFastOnRefusedFirstDial(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g, dials := refusingEdge(t, http.StatusNotFound, func(int32) bool { return true })
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	err := f.C.Tunnels.Serve(ctx, g, echo, tunnels.WithHTTPClient(http.DefaultClient),
		tunnels.WithReconnect(time.Hour, time.Hour, 0))
	if err == nil || errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "HTTP 404") {
		t.Errorf("Serve = %v after %d dials, want the 404 at once", err, dials.Load())
	}
}

// An upgrade refused with HTTP 401 or 403 once the tunnel was up is
// retried with backoff like any other refused upgrade, not renewed (the
// edge refuses an expired token with close 4000, after the upgrade): the
// grant, whose token has expired and which names a project, is neither
// created again nor given up on. Before a session, it ends Serve at once
// with ErrTokenRejected.
func TestServeRetriesTokenRefusedUpgradeAfterSession(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for _, status := range []int{http.StatusUnauthorized, http.StatusForbidden} {
		g, dials := refusingEdge(t, status, func(n int32) bool { return n == 2 || n == 3 })
		g.ProjectID, g.Name, g.ConnectTokenExpiresAt = f.WS.ProjectID, "local", shared.MillisOf(t0)
		connected := make(chan struct{}, 4)
		serveOn(t, f, g, echo, tunnels.WithReconnect(10*time.Millisecond, 50*time.Millisecond, time.Minute),
			tunnels.WithClock(f.Clock.Now), tunnels.OnConnect(func() { connected <- struct{}{} }),
			tunnels.OnGrant(func(*tunnels.Grant) { t.Errorf("HTTP %d: renewed the grant", status) }))
		for i := range 2 {
			select {
			case <-connected:
			case <-time.After(10 * time.Second):
				t.Fatalf("HTTP %d: connect %d never came (dials %d)", status, i+1, dials.Load())
			}
		}
		if n := dials.Load(); n != 4 {
			t.Errorf("HTTP %d: %d dials, want 4 (two refused, then retried)", status, n)
		}

		g, _ = refusingEdge(t, status, func(int32) bool { return true })
		err := f.C.Tunnels.Serve(t.Context(), g, echo, tunnels.WithHTTPClient(http.DefaultClient),
			tunnels.WithReconnect(time.Hour, time.Hour, 0))
		if !errors.Is(err, tunnels.ErrTokenRejected) {
			t.Errorf("HTTP %d on the first dial: Serve = %v, want ErrTokenRejected at once", status, err)
		}
	}
}
