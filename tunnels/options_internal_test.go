package tunnels

import (
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/projectops/projectops-go/shared"
)

// A reconnect min above the default ceiling raises the ceiling: the
// backoff's max was left below its min.
func TestWithReconnectCeilingNotBelowMin(t *testing.T) {
	for _, tc := range []struct{ min, max, wantMax time.Duration }{
		{time.Minute, 0, time.Minute},
		{time.Minute, time.Second, time.Minute},
		{time.Second, 2 * time.Second, 2 * time.Second},
		{0, 0, DefaultReconnectMax},
	} {
		o := defaultServeOptions()
		WithReconnect(tc.min, tc.max, 0)(&o)
		if o.max != tc.wantMax || o.max < o.min {
			t.Errorf("WithReconnect(%s, %s): min %s max %s, want max %s", tc.min, tc.max, o.min, o.max, tc.wantMax)
		}
	}
}

// WithConnectTimeout sets the per-attempt deadline; zero or negative
// keeps the default (the service's agent's 15 s), as WithReconnect's
// non-positive min does, instead of timing every attempt out at once.
func TestWithConnectTimeout(t *testing.T) {
	for _, tc := range []struct{ d, want time.Duration }{
		{time.Second, time.Second},
		{0, DefaultConnectTimeout},
		{-time.Second, DefaultConnectTimeout},
	} {
		o := defaultServeOptions()
		WithConnectTimeout(tc.d)(&o)
		if o.connect != tc.want {
			t.Errorf("WithConnectTimeout(%s): %s, want %s", tc.d, o.connect, tc.want)
		}
	}
	if DefaultConnectTimeout != 15*time.Second {
		t.Errorf("DefaultConnectTimeout = %s, want the agent's 15s", DefaultConnectTimeout)
	}
}

// A zero Service, and a nil one (a zero Client's Tunnels), refuses Serve
// with the typed error its other methods give, instead of dialing with
// http.DefaultClient, or with the client WithHTTPClient gave, which once
// dialed the relay.
func TestZeroServiceServe(t *testing.T) {
	g := &Grant{RelayWSURL: "ws://127.0.0.1:1/relay", ConnectToken: "ct_x"}
	var dialed atomic.Bool
	// A permanent dial error ends a Serve that dials at once, instead of
	// reconnecting.
	hc := &http.Client{Transport: dialRecorder(func(*http.Request) (*http.Response, error) {
		dialed.Store(true)
		return nil, backoff.Permanent(errors.New("dialed"))
	})}
	for _, s := range []*Service{{}, nil} {
		for _, opts := range [][]ServeOption{nil, {WithHTTPClient(hc)}} {
			err := s.Serve(t.Context(), g, http.NotFoundHandler(), opts...)
			if e, ok := errors.AsType[*shared.Error](err); !ok || e.Code != shared.CodeValidation || !strings.Contains(err.Error(), "unconfigured client") {
				t.Errorf("Serve on %#v with %d options: %v; want the unconfigured client's VALIDATION_ERROR", s, len(opts), err)
			}
		}
	}
	if dialed.Load() {
		t.Error("Serve on a zero Service dialed the relay")
	}
}

// dialRecorder is an http.RoundTripper made of a func.
type dialRecorder func(*http.Request) (*http.Response, error)

func (f dialRecorder) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
