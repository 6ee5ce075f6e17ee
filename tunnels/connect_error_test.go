package tunnels_test

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
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
// error saying no session came up within it, the last dial's cause beneath
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
	if !strings.HasPrefix(err.Error(), "tunnels: gave up: no session came up within 1ns: ") {
		t.Errorf("Serve = %v, want it to say no session came up within its limit", err)
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
