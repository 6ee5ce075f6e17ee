package tunnels_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/projectops/projectops-go/tunnels"
)

// refusedRelay is a grant whose relay URL nothing listens at (connection
// refused), with secrets in its query and userinfo to look for in errors.
func refusedRelay(t *testing.T) (*tunnels.Grant, string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return &tunnels.Grant{ServerID: "srv_1", Slug: "slug0001", URL: "https://relay.example/t/slug0001/mcp?k=x",
		RelayWSURL: "ws://u:p@" + addr + "/agent?relayq=SEKRITQUERY", ConnectToken: "ct_SEKRITTOKEN"}, addr
}

// A relay never reached ends Serve, once its limit has passed, with an
// error saying no session came up in the time it tried, the last dial's cause beneath
// it for errors.Is and As, and neither the relay URL's query nor its
// userinfo shown, by the error or by any error beneath it: the *url.Error
// a caller finds with errors.As (to ask Timeout(), say) and prints
// showed both.
func TestServeGivesUpWhenNoSessionCameUp(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g, _ := refusedRelay(t)
	err := f.C.Tunnels.Serve(t.Context(), g, echo, tunnels.WithHTTPClient(http.DefaultClient),
		tunnels.WithReconnect(time.Millisecond, time.Millisecond, time.Nanosecond))
	if err == nil {
		t.Fatal("Serve returned nil")
	}
	if !regexp.MustCompile(`^tunnels: gave up: no session came up in [0-9.]+[µm]?s \(window 1ns\): `).MatchString(err.Error()) {
		t.Errorf("Serve = %v, want it to say no session came up in the time it tried, and its window", err)
	}
	var oe *net.OpError
	if !errors.As(err, &oe) || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("Serve = %v: no *net.OpError / ECONNREFUSED beneath", err)
	}
	var ue *url.Error
	if !errors.As(err, &ue) {
		t.Errorf("Serve = %v: no *url.Error beneath", err)
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		if s := e.Error(); strings.Contains(s, "SEKRIT") || strings.Contains(s, "u:p") {
			t.Errorf("%T in Serve's error chain shows the query or userinfo: %s", e, s)
		}
	}
}

// cancelOn is a slog handler that cancels a context when a record with
// the message msg is logged: it ends Serve's context at a chosen point.
type cancelOn struct {
	msg    string
	cancel context.CancelFunc
}

func (h cancelOn) Enabled(context.Context, slog.Level) bool { return true }
func (h cancelOn) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h cancelOn) WithGroup(string) slog.Handler            { return h }
func (h cancelOn) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.cancel()
	}
	return nil
}

// OnConnectError is not called once Serve's context has ended, even when
// it ends between the failed attempt and the call (here, as the wait is
// logged): the caller stopped the tunnel and is told nothing more.
func TestOnConnectErrorNotToldAfterCancel(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g, _ := refusedRelay(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	told := 0
	err := f.C.Tunnels.Serve(ctx, g, echo, tunnels.WithHTTPClient(http.DefaultClient),
		tunnels.WithReconnect(time.Millisecond, time.Millisecond, 0),
		tunnels.WithLogger(slog.New(cancelOn{msg: "tunnel disconnected; reconnecting", cancel: cancel})),
		tunnels.OnConnectError(func(error, time.Duration) { told++ }))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Serve = %v, want context.Canceled", err)
	}
	if told != 0 {
		t.Errorf("OnConnectError called %d times after the context ended", told)
	}
}

// gaveUpAfter is the time a give-up error says Serve spent on its run of
// failed attempts.
func gaveUpAfter(t *testing.T, err error, window time.Duration) time.Duration {
	t.Helper()
	re := regexp.MustCompile(`^tunnels: gave up: no session came up in (\S+) \(window ` + regexp.QuoteMeta(window.String()) + `\): `)
	m := re.FindStringSubmatch(fmt.Sprint(err))
	if m == nil {
		t.Fatalf("Serve = %v, want it to give up, saying how long it tried in its %s window", err, window)
	}
	spent, perr := time.ParseDuration(m[1])
	if perr != nil {
		t.Fatalf("Serve = %v: %v", err, perr)
	}
	return spent
}

// A min wait longer than the window: the first dial is refused at once,
// and the wait is cut to what is left of the window, for a retry at its
// end. Serve gave up after the first dial, a millisecond in, saying no
// session came up within the window.
func TestServeRetriesUntilTheWindowIsSpent(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g, _ := refusedRelay(t)
	const window = 300 * time.Millisecond
	var waits []time.Duration
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second) // an hour's wait fails, not hangs
	defer cancel()
	err := f.C.Tunnels.Serve(ctx, g, echo, tunnels.WithHTTPClient(http.DefaultClient),
		tunnels.WithReconnect(time.Hour, time.Hour, window),
		tunnels.OnConnectError(func(_ error, retryIn time.Duration) { waits = append(waits, retryIn) }))
	if spent := gaveUpAfter(t, err, window); spent < window {
		t.Errorf("gave up %s in, before its %s window was spent", spent, window)
	}
	if len(waits) != 1 || waits[0] <= 0 || waits[0] > window {
		t.Errorf("waits before retrying %v, want one, cut to what was left of the %s window", waits, window)
	}
}

// An attempt takes up to the connect timeout, so the one that overruns the
// window is the last, and Serve returns after the window by up to that
// attempt. The docs said it gave up within the window, as did its error.
func TestServeGivesUpAfterTheWindowByOneAttempt(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g, dials := stallingEdge(t, func(int32) dialPlan { return hangUpgrade })
	const window, connect = 200 * time.Millisecond, time.Second
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second) // retrying for ever fails, not hangs
	defer cancel()
	start := time.Now()
	err := f.C.Tunnels.Serve(ctx, g, echo, tunnels.WithHTTPClient(http.DefaultClient),
		tunnels.WithConnectTimeout(connect), tunnels.WithReconnect(time.Millisecond, time.Millisecond, window))
	el := time.Since(start)
	spent := gaveUpAfter(t, err, window)
	if n := dials.Load(); n != 1 {
		t.Errorf("%d dials, want 1: the first, stalled past the window, was the last", n)
	}
	// The stalled attempt lasted the connect timeout; the slack is for a
	// busy machine, not a measure of speed.
	const slack = 5 * time.Second
	if el < window || spent < connect || spent > window+connect+slack {
		t.Errorf("Serve returned %s in, saying %s, want after the %s window, from the connect timeout (%s) to one attempt past it",
			el, spent, window, connect)
	}
}
