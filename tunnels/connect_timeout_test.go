package tunnels_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
	"github.com/projectops/projectops-go/tunnels"
)

// dialPlan is what a stallingEdge does with one dial.
type dialPlan int

const (
	routeAndHold  dialPlan = iota // upgrade, hello, then hold the session
	routeAndDrop                  // upgrade, hello, then close (going away)
	hangUpgrade                   // take the request and never answer it
	withholdHello                 // upgrade and answer pings, never say hello
)

// stallingEdge is a relay edge that does with its nth dial what plan says,
// and a grant for it whose secrets (the URL's ?k=, the connect token, a
// query on the relay URL) are there to be looked for in errors and logs.
func stallingEdge(t *testing.T, plan func(n int32) dialPlan) (*tunnels.Grant, *atomic.Int32) {
	t.Helper()
	var dials atomic.Int32
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := plan(dials.Add(1))
		if p == hangUpgrade {
			select { // the host gives up and closes the connection, or the test ends
			case <-r.Context().Done():
			case <-done:
			}
			return
		}
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{tunnelwire.Subprotocol}})
		if err != nil {
			return
		}
		defer c.CloseNow()
		if p != withholdHello {
			if c.Write(r.Context(), websocket.MessageText, tunnelwire.AppendHello(nil, "slug0001", tunnelwire.DefaultLimits)) != nil {
				return
			}
		}
		if p == routeAndDrop {
			_ = c.Close(websocket.StatusGoingAway, "edge going away")
			return
		}
		go func() { <-done; _ = c.CloseNow() }()
		for { // reads the host's pings (answering them) and close until the session ends
			if _, _, err := c.Read(context.Background()); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) }) // before Close, which waits for the handlers
	return &tunnels.Grant{ServerID: "srv_1", Slug: "slug0001",
		URL:          "https://relay.example/t/slug0001/mcp?k=SEKRIT0123456789abcdefghijklmnopqrstuv",
		RelayWSURL:   "ws" + strings.TrimPrefix(srv.URL, "http") + "/agent?relayq=SEKRITQUERY",
		ConnectToken: "ct_SEKRITTOKEN"}, &dials
}

// A relay that takes the connection and never answers the upgrade (the
// client, http.DefaultClient, has no timeout of its own), or upgrades and
// answers pings but never says hello, fails the attempt after the connect
// timeout; the first dial and a reconnect alike are then retried with
// backoff: the next dial, routed, connects. Serve waited for ever on such
// an attempt. (The service's agent times its first connect as a whole and
// gives up; its redials have no timeout: the per-attempt bound is the
// SDK's own.)
func TestServeRetriesAttemptPastConnectTimeout(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for _, stall := range []dialPlan{hangUpgrade, withholdHello} {
		for _, tc := range []struct {
			name     string
			plan     func(n int32) dialPlan
			connects int   // OnConnect calls to wait for
			dials    int32 // how many dials it took, by then
		}{
			{"first dial", func(n int32) dialPlan {
				if n == 1 {
					return stall
				}
				return routeAndHold
			}, 1, 2},
			{"redial", func(n int32) dialPlan {
				switch n {
				case 1:
					return routeAndDrop
				case 2:
					return stall
				}
				return routeAndHold
			}, 2, 3},
		} {
			name := map[dialPlan]string{hangUpgrade: "upgrade", withholdHello: "hello"}[stall] + ", " + tc.name
			t.Run(name, func(t *testing.T) {
				g, dials := stallingEdge(t, tc.plan)
				connected := make(chan struct{}, 4)
				ret := serveOn(t, f, g, echo, tunnels.WithConnectTimeout(50*time.Millisecond),
					tunnels.WithReconnect(time.Millisecond, time.Millisecond, 0), tunnels.WithHeartbeat(10*time.Millisecond),
					tunnels.OnConnect(func() { connected <- struct{}{} }))
				for i := range tc.connects {
					select {
					case <-connected:
					case err := <-ret:
						t.Fatalf("Serve returned before connect %d: %v", i+1, err)
					case <-time.After(10 * time.Second):
						t.Fatalf("connect %d never came: Serve still waits on a stalled attempt (dials %d)", i+1, dials.Load())
					}
				}
				if n := dials.Load(); n != tc.dials {
					t.Errorf("%d dials, want %d (the stalled one retried once)", n, tc.dials)
				}
			})
		}
	}
}

// A stalled attempt fails with an error saying Serve timed out waiting for
// the relay, which (with the reconnect budget spent) Serve returns; it
// shows none of the grant's secrets nor the relay URL, and nor do the logs.
func TestServeConnectTimeoutError(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for _, tc := range []struct {
		stall dialPlan
		want  string
	}{
		{hangUpgrade, "timed out waiting for the relay to accept the connection after 50ms"},
		{withholdHello, "timed out waiting for the relay's hello after 50ms"},
	} {
		g, dials := stallingEdge(t, func(int32) dialPlan { return tc.stall })
		var logs bytes.Buffer
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second) // old code waited for ever: fail, not hang
		err := f.C.Tunnels.Serve(ctx, g, echo, tunnels.WithHTTPClient(http.DefaultClient),
			tunnels.WithConnectTimeout(50*time.Millisecond), tunnels.WithReconnect(time.Millisecond, time.Millisecond, time.Nanosecond),
			tunnels.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
		cancel()
		if err == nil || errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Serve = %v after %d dials, want an error saying %q", err, dials.Load(), tc.want)
			continue
		}
		// It can be told from other failures, as a net.Error timeout too.
		var ne net.Error
		if !errors.Is(err, tunnels.ErrConnectTimeout) || !errors.As(err, &ne) || !ne.Timeout() {
			t.Errorf("Serve = %v: want it to match ErrConnectTimeout and be a net.Error whose Timeout is true", err)
		}
		if n := dials.Load(); n != 1 {
			t.Errorf("%d dials, want 1 (the budget was spent on the first)", n)
		}
		relay, _, _ := strings.Cut(g.RelayWSURL, "?")
		for _, s := range []string{"SEKRIT", g.ConnectToken, strings.TrimPrefix(relay, "ws://")} {
			if strings.Contains(err.Error(), s) || strings.Contains(logs.String(), s) {
				t.Errorf("the error or logs show %q:\n%v\n%s", s, err, logs.String())
			}
		}
	}
}

// A session routed to within the connect timeout is not cut by it later:
// the timer stops at the hello. The edge holds the session and the
// heartbeat (DefaultHeartbeat, 25 s) cannot fire within the window, so the
// session ends only if the timer cuts it (at 100ms): waiting ten times that
// long cannot fail a working host. Dials that timed out before the connect
// (a slow machine) are no matter: after it, there must be none.
func TestHealthySessionOutlivesConnectTimeout(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g, dials := stallingEdge(t, func(int32) dialPlan { return routeAndHold })
	connected := make(chan int32, 4) // the dials made by each connect
	disc := make(chan error, 4)
	ret := serveOn(t, f, g, echo, tunnels.WithConnectTimeout(100*time.Millisecond),
		tunnels.WithReconnect(time.Millisecond, time.Millisecond, 0),
		tunnels.OnConnect(func() { connected <- dials.Load() }), tunnels.OnDisconnect(func(err error) { disc <- err }))
	var before int32
	select {
	case before = <-connected:
	case err := <-ret:
		t.Fatal(err)
	case <-time.After(10 * time.Second):
		t.Fatal("no connect")
	}
	select {
	case err := <-disc:
		t.Fatalf("healthy session cut: %v (dials %d)", err, dials.Load())
	case <-time.After(time.Second):
	}
	if n := dials.Load(); n != before {
		t.Errorf("%d dials after the connect, want none", n-before)
	}
}

// OnConnectError is told of each attempt that failed before its session
// came up, with the wait before the next one; a live session's end is
// OnDisconnect's, not its.
func TestOnConnectErrorToldOfFailedAttemptsOnly(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// A stalled first dial, a session that drops, a stalled redial, then one that holds.
	g, _ := stallingEdge(t, func(n int32) dialPlan {
		return map[int32]dialPlan{1: hangUpgrade, 2: routeAndDrop, 3: withholdHello}[n] // 4 on: routeAndHold
	})
	type failure struct {
		err string
		in  time.Duration
	}
	failures := make(chan failure, 8)
	disconnects := make(chan struct{}, 8)
	connected := make(chan struct{}, 4)
	ret := serveOn(t, f, g, echo, tunnels.WithConnectTimeout(50*time.Millisecond),
		tunnels.WithReconnect(time.Millisecond, time.Millisecond, 0), tunnels.WithHeartbeat(10*time.Millisecond),
		tunnels.OnConnect(func() { connected <- struct{}{} }),
		tunnels.OnDisconnect(func(error) { disconnects <- struct{}{} }),
		tunnels.OnConnectError(func(err error, in time.Duration) { failures <- failure{err.Error(), in} }))
	for i := range 2 {
		select {
		case <-connected:
		case err := <-ret:
			t.Fatalf("Serve returned before connect %d: %v", i+1, err)
		case <-time.After(10 * time.Second):
			t.Fatalf("connect %d never came", i+1)
		}
	}
	close(failures)
	var got []failure
	for f := range failures {
		got = append(got, f)
	}
	if len(got) != 2 || !strings.Contains(got[0].err, "accept the connection") || !strings.Contains(got[1].err, "hello") {
		t.Fatalf("OnConnectError calls = %+v, want the stalled upgrade, then the withheld hello", got)
	}
	for _, f := range got {
		if f.in <= 0 || f.in > 2*time.Millisecond { // 1ms, jittered by half either way
			t.Errorf("retryIn = %v, want the backoff's 1ms, jittered", f.in)
		}
	}
	if len(disconnects) != 1 {
		t.Errorf("%d OnDisconnect calls, want 1 (the dropped session)", len(disconnects))
	}
}

// A relay that cannot be reached is told to OnConnectError and ends Serve
// (the budget spent) with the dial's cause, the relay URL shown without
// its query, as the timeout errors show none of the grant's secrets.
func TestConnectErrorShowsNoRelayQuery(t *testing.T) {
	t.Parallel()
	f := setup(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now: connection refused
	g := &tunnels.Grant{ServerID: "srv_1", Slug: "slug0001",
		URL:        "https://relay.example/t/slug0001/mcp?k=SEKRIT0123456789abcdefghijklmnopqrstuv",
		RelayWSURL: "ws://" + addr + "/agent?relayq=SEKRITQUERY", ConnectToken: "ct_SEKRITTOKEN"}
	var told []string
	err = f.C.Tunnels.Serve(t.Context(), g, echo, tunnels.WithHTTPClient(http.DefaultClient),
		tunnels.WithReconnect(time.Millisecond, time.Millisecond, time.Nanosecond),
		tunnels.OnConnectError(func(err error, _ time.Duration) { told = append(told, err.Error()) }))
	if err == nil || !strings.Contains(err.Error(), "connecting to the relay") || !strings.Contains(err.Error(), addr+"/agent") {
		t.Fatalf("Serve = %v, want the dial's error naming the relay", err)
	}
	for _, s := range append(told, err.Error()) {
		if strings.Contains(s, "SEKRIT") {
			t.Errorf("an error shows the relay URL's query or a secret: %s", s)
		}
	}
}
