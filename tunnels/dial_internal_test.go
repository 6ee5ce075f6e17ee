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
// quote). Every error a caller reaches by unwrapping it (errors.As to a
// *url.Error to ask Timeout(), say) shows neither: the *url.Error beneath
// is a cleaned copy (net/http's keeps its URL), and one that does not
// parse is skipped for its cause; the cause itself is still reached.
func TestDialErrorHidesRelayURLQuery(t *testing.T) {
	cause := errors.New("connection refused")
	for _, tc := range []struct {
		raw, want, wantURL string // wantURL: the *url.Error's beneath; "" for none
	}{
		{"ws://u:p@relay.example/agent?relayq=SEKRIT", `Get "ws://relay.example/agent": connection refused`, "ws://relay.example/agent"},
		{"ws://relay.example/%zz?relayq=SEKRIT", `Get the relay URL: connection refused`, ""},
	} {
		ue := &url.Error{Op: "Get", URL: tc.raw, Err: cause}
		err := dialError(fmt.Errorf("failed to dial: %w", ue))
		if !strings.HasSuffix(err.Error(), "failed to dial: "+tc.want) {
			t.Errorf("dialError(%q) = %q, want it to end %q", tc.raw, err, tc.want)
		}
		for e := error(err); e != nil; e = errors.Unwrap(e) {
			if s := e.Error(); strings.Contains(s, "SEKRIT") || strings.Contains(s, "u:p") {
				t.Errorf("dialError(%q): %T in its chain shows the query or userinfo: %s", tc.raw, e, s)
			}
		}
		var got *url.Error
		switch {
		case !errors.As(err, &got):
			if tc.wantURL != "" {
				t.Errorf("dialError(%q): no *url.Error beneath", tc.raw)
			}
		case got.URL != tc.wantURL:
			t.Errorf("dialError(%q): the *url.Error beneath has URL %q, want %q", tc.raw, got.URL, tc.wantURL)
		case got.Op != "Get":
			t.Errorf("dialError(%q): the *url.Error beneath has Op %q, want Get", tc.raw, got.Op)
		}
		if ue.URL != tc.raw {
			t.Errorf("dialError changed net/http's *url.Error's URL to %q", ue.URL)
		}
		if !errors.Is(err, cause) {
			t.Errorf("dialError(%q) hides its cause", tc.raw)
		}
	}
}

// A client whose transport itself calls an http.Client (a retrying or
// instrumenting RoundTripper) puts that client's *url.Error, raw URL and
// all, beneath net/http's: the message and the *url.Error errors.As finds
// first (its text too, which quotes its cause) show neither query nor
// userinfo, and the transport's own error is left as it made it, still
// reached (the documented limit of the cleaning). The first one's text
// showed both.
func TestDialErrorNestedURLError(t *testing.T) {
	raw := "https://u:p@relay.example/agent?relayq=SEKRIT"
	refused := errors.New("connection refused")
	inner := &url.Error{Op: "Get", URL: raw, Err: refused}
	outer := &url.Error{Op: "Get", URL: raw, Err: fmt.Errorf("giving up after 1 attempt(s): %w", inner)}
	err := dialError(fmt.Errorf("failed to WebSocket dial: %w", outer))
	if s := err.Error(); strings.Contains(s, "SEKRIT") || strings.Contains(s, "u:p") {
		t.Errorf("message shows the query or userinfo: %s", s)
	}
	var first *url.Error
	if !errors.As(err, &first) || first.URL != "https://relay.example/agent" {
		t.Fatalf("the first *url.Error beneath is %v, want net/http's, with its URL cleaned", first)
	}
	if s := first.Error(); strings.Contains(s, "SEKRIT") || strings.Contains(s, "u:p") {
		t.Errorf("the first *url.Error beneath shows the query or userinfo: %s", s)
	}
	if !errors.Is(err, inner) || !errors.Is(err, refused) {
		t.Errorf("dialError(%v) hides the transport's own error or its cause", outer)
	}
}
