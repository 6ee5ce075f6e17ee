package projectopstest_test

import (
	"net/http"
	"strings"
	"testing"
)

// The service's edge and agent are Node programs, which hold an HTTP
// message's url and header values as byte strings: one character per
// byte (U+0000–U+00FF). The agent hands a req's strings to http.request,
// which throws on a character above U+00FF (ending the agent) and writes
// one byte per character otherwise; it reads a response's header values
// the same way. The double's edge must speak that rule both ways.

// latin1 is s's runes as bytes, and whether every rune fits one.
func latin1(s string) ([]byte, bool) {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xFF {
			return nil, false
		}
		out = append(out, byte(r))
	}
	return out, true
}

func TestRelayReqHeaderValuesAreByteStrings(t *testing.T) {
	t.Parallel()
	for _, value := range []string{"caf\xc3\xa9", "5\xe2\x82\xac", "x\xffy"} {
		f := newRelayFixture(t, true)
		a := f.dial(t)
		u := *f.publicU
		req, _ := http.NewRequestWithContext(t.Context(), "GET", u.String(), nil)
		req.Header.Set("X-Bytes", value)
		respc := make(chan *http.Response, 1)
		go func() {
			resp, err := f.tg.client.Do(req)
			if err != nil {
				respc <- &http.Response{StatusCode: -1, Status: err.Error(), Body: http.NoBody}
				return
			}
			respc <- resp
		}()
		m := a.next()
		if m.T != "req" {
			t.Fatalf("%q: got %+v, want req", value, m)
		}
		got := m.header("x-bytes")
		b, ok := latin1(got)
		switch {
		case !ok:
			t.Errorf("header value %q (caller's bytes %q) reaches the agent with a character above U+00FF", got, value)
		case string(b) != value:
			t.Errorf("header value %q: the agent writes it as bytes %q, the caller sent %q", got, b, value)
		}
		a.sendText(`{"t":"res","id":%d,"status":204,"headers":[]}`, m.ID)
		a.sendText(`{"t":"res_end","id":%d}`, m.ID)
		recvResp(t, respc)
	}
}

// A caller's raw bytes in the query (UTF-8 é and €, sent as written)
// reach the agent one character per byte, the url as the caller wrote it.
func TestRelayReqURLIsAByteString(t *testing.T) {
	t.Parallel()
	for _, extra := range []string{"x=caf\xc3\xa9", "x=5\xe2\x82\xac", "x=a%2Fb"} {
		f := newRelayFixture(t, true)
		a := f.dial(t)
		u := *f.publicU
		original := u.EscapedPath() + "?" + u.RawQuery + "&" + extra
		u.RawQuery += "&" + extra // sent raw, as a client may
		req, _ := http.NewRequestWithContext(t.Context(), "GET", u.String(), nil)
		respc := f.do(req)
		var m edgeMsg
		select {
		case m = <-a.in:
		case resp := <-respc:
			resp.Body.Close()
			t.Fatalf("%q: %d without relaying", extra, resp.StatusCode)
		}
		if m.T != "req" {
			t.Fatalf("%q: got %+v, want req", extra, m)
		}
		sent := strings.TrimPrefix(original, "/tunnels/"+a.hello.Slug)
		b, ok := latin1(m.URL)
		switch { // the url holds the secret: only the caller's part is shown
		case !ok:
			t.Errorf("%q: the url reaches the agent with a character above U+00FF", extra)
		case string(b) != sent:
			_, after, _ := strings.Cut(string(b), "&") // past k=<secret>
			t.Errorf("%q: the agent writes the url as other bytes than the caller sent (after k: %q)", extra, after)
		}
		a.sendText(`{"t":"res","id":%d,"status":204,"headers":[]}`, m.ID)
		a.sendText(`{"t":"res_end","id":%d}`, m.ID)
		recvResp(t, respc)
	}
}

// A local server's UTF-8 "café" (bytes c3 a9) comes from the agent as
// the characters U+00C3 U+00A9: the caller gets the bytes back.
func TestRelayResHeaderValuesAreByteStrings(t *testing.T) {
	t.Parallel()
	f := newRelayFixture(t, true)
	resp, _ := relayRes(t, f, f.dial(t), `[["x-r","caf\u00c3\u00a9"]]`)
	if got := resp.Header.Get("X-R"); got != "caf\xc3\xa9" {
		t.Errorf("response header bytes %q, want the local server's %q", got, "caf\xc3\xa9")
	}
}

// A response header character above U+00FF stands for no byte: Node's
// setHeader would throw, so the edge fails the response, 502 as for any
// head it cannot write.
func TestRelayResHeaderAboveFFFails(t *testing.T) {
	t.Parallel()
	f := newRelayFixture(t, true)
	resp, body := relayRes(t, f, f.dial(t), `[["x-r","5\u20ac"]]`)
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(body, `"SERVER_UNREACHABLE"`) || resp.Header.Get("X-R") != "" {
		t.Errorf("%d %v %s, want 502 SERVER_UNREACHABLE", resp.StatusCode, resp.Header, body)
	}
}
