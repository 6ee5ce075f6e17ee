package tunnels

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// dialError shows the relay URL without its query or userinfo, and one
// that does not parse as "the relay URL", unquoted (there is no URL to
// quote); the *url.Error beneath is net/http's and keeps its URL.
func TestDialErrorHidesRelayURLQuery(t *testing.T) {
	cause := errors.New("connection refused")
	for _, tc := range []struct {
		raw, want string
	}{
		{"ws://u:p@relay.example/agent?relayq=SEKRIT", `Get "ws://relay.example/agent": connection refused`},
		{"ws://relay.example/%zz?relayq=SEKRIT", `Get the relay URL: connection refused`},
	} {
		ue := &url.Error{Op: "Get", URL: tc.raw, Err: cause}
		err := dialError(fmt.Errorf("failed to dial: %w", ue))
		if !strings.HasSuffix(err.Error(), "failed to dial: "+tc.want) || strings.Contains(err.Error(), "SEKRIT") {
			t.Errorf("dialError(%q) = %q, want it to end %q", tc.raw, err, tc.want)
		}
		if ue.URL != tc.raw {
			t.Errorf("dialError changed the *url.Error's URL to %q", ue.URL)
		}
		if !errors.Is(err, cause) {
			t.Errorf("dialError(%q) hides its cause", tc.raw)
		}
	}
}
