package tunnels_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/projectops/projectops-go/tunnels"
)

// switchedBody records whether a 101 response's connection was closed.
type switchedBody struct {
	io.ReadWriteCloser
	closed atomic.Bool
}

func (b *switchedBody) Close() error {
	b.closed.Store(true)
	return b.ReadWriteCloser.Close()
}

// keepSwitched is a transport that hands out 101 bodies wrapped in a
// switchedBody and keeps them (so only the proxy, not a finalizer, can
// close them).
type keepSwitched struct {
	base *http.Transport
	got  chan *switchedBody
}

func (k keepSwitched) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := k.base.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusSwitchingProtocols {
		if rwc, ok := resp.Body.(io.ReadWriteCloser); ok {
			b := &switchedBody{ReadWriteCloser: rwc}
			resp.Body = b
			k.got <- b
		}
	}
	return resp, err
}

// A local server behind ProxyTo that answers 101 Switching Protocols (a
// broken or hostile one: the tunnel cannot switch protocols) gets a 502
// relayed, with the JSON body of the other 502s, and its switched connection closed once the relayed request
// ends; OnUnanswered is not told, as the server did answer. The connection
// was left open (ReverseProxy, which cannot hijack the tunnel's
// ResponseWriter, returns without closing it) until a garbage collection
// happened to finalize it, and OnUnanswered heard "backend tried to
// switch protocol".
func TestProxyToClosesSwitchedLocalConnection(t *testing.T) {
	t.Parallel()
	f := setup(t)
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		_, _ = brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: foo\r\nConnection: Upgrade\r\n\r\n")
		_ = brw.Flush()
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, _ = conn.Read(make([]byte, 1)) // until the proxy side closes
	}))
	defer local.Close()
	base := &http.Transport{}
	defer base.CloseIdleConnections()
	tr := keepSwitched{base: base, got: make(chan *switchedBody, 1)}
	u, _ := url.Parse(local.URL + "/mcp")
	var unanswered atomic.Int32
	h, err := tunnels.ProxyTo(u, tunnels.WithProxyTransport(tr),
		tunnels.OnUnanswered(func(*http.Request, error) { unanswered.Add(1) }))
	if err != nil {
		t.Fatal(err)
	}
	r := relayOnce(t, f, h, http.MethodGet, "/api/mcp/adapter-http/srv_1?k=s3cret", nil, nil)
	var body struct {
		Error string `json:"error"`
	}
	if r.status != http.StatusBadGateway || r.header.Get("Content-Type") != "application/json" ||
		json.Unmarshal([]byte(r.body), &body) != nil || !strings.Contains(body.Error, "switched protocols") {
		t.Errorf("a 101 from the local server relayed as %+v, want 502 with the JSON body of the other 502s, {\"error\": ...switched protocols...}", r)
	}
	if n := unanswered.Load(); n != 0 {
		t.Errorf("OnUnanswered was told of a request the local server answered (101) %d times", n)
	}
	var b *switchedBody
	select {
	case b = <-tr.got:
	case <-time.After(5 * time.Second):
		t.Fatal("the local server's 101 never reached the transport")
	}
	defer b.ReadWriteCloser.Close() // the test's own cleanup
	// The relayed request has ended: its handler returned. A bounded wait
	// for the close.
	for deadline := time.Now().Add(3 * time.Second); !b.closed.Load(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the local server's switched connection is still open after the relayed request ended")
		}
	}
}
