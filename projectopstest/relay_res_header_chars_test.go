package projectopstest_test

import (
	"net/http"
	"strings"
	"testing"
)

// Node's setHeader throws on a header value with a control character
// other than tab (ERR_INVALID_CHAR) and on a name that is not a token
// (ERR_INVALID_HTTP_TOKEN), as on a character above U+00FF: the service's
// edge cannot write such a res, so the double answers 502 as for one,
// rather than write a NUL (invalid HTTP), turn CR/LF into spaces or drop
// the name, and tells the host the stream is over (abort upstream_error),
// which would otherwise go on counting it.
func TestRelayResHeaderNodeRefuses(t *testing.T) {
	t.Parallel()
	f := newRelayFixture(t, true)
	a := f.dial(t) // one session: a refused res fails its stream only
	for _, pair := range []string{
		`["x-r","a\u0000b"]`,
		`["x-r","a\r\nX-Injected: 1"]`,
		`["x-r","a\u007fb"]`,
		`["x-\u00e9","v"]`,
		`["x r","v"]`,
		`["","v"]`,
	} {
		resp, body := relayRes(t, f, a, `[`+pair+`]`)
		if resp.StatusCode != http.StatusBadGateway || !strings.Contains(body, `"SERVER_UNREACHABLE"`) {
			t.Errorf("res header %s: %d %q %q, want 502 SERVER_UNREACHABLE", pair, resp.StatusCode, resp.Status, resp.Header)
		}
		if m := a.next(); m.T != "abort" || m.Code != "upstream_error" {
			t.Errorf("res header %s: the host got %+v, want an upstream_error abort", pair, m)
		}
	}
}

// What Node writes goes through: a tab, printable ASCII and bytes 80–ff.
func TestRelayResHeaderTabAndObsText(t *testing.T) {
	t.Parallel()
	f := newRelayFixture(t, true)
	resp, _ := relayRes(t, f, f.dial(t), `[["x-r","a\tb ~\u0080\u00ff"]]`)
	if got := resp.Header.Get("X-R"); resp.StatusCode != http.StatusOK || got != "a\tb ~\x80\xff" {
		t.Errorf("%d, X-R %q; want 200 and the bytes %q", resp.StatusCode, got, "a\tb ~\x80\xff")
	}
}

// relayRes relays a GET to agent a, which answers 200 with headers (a JSON
// array of [name, value] pairs), and returns what the caller got.
func relayRes(t *testing.T, f *relayFixture, a *agent, headers string) (*http.Response, string) {
	t.Helper()
	respc := f.public(t.Context(), "GET", "", "", nil)
	m := a.next()
	if m.T != "req" {
		t.Fatalf("got %+v, want req", m)
	}
	a.sendText(`{"t":"res","id":%d,"status":200,"headers":`+headers+`}`, m.ID)
	a.sendText(`{"t":"res_end","id":%d}`, m.ID)
	return recvResp(t, respc)
}
