package tunnels

import (
	"net/http"
	"strings"
	"testing"
	"time"
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

// A zero Service refuses Serve with the typed error its other methods give,
// instead of dialing with http.DefaultClient.
func TestZeroServiceServe(t *testing.T) {
	g := &Grant{RelayWSURL: "ws://127.0.0.1:1/relay", ConnectToken: "ct_x"}
	err := (&Service{}).Serve(t.Context(), g, http.NotFoundHandler())
	if err == nil || !strings.Contains(err.Error(), "unconfigured client") {
		t.Errorf("Serve on a zero Service: %v", err)
	}
}
