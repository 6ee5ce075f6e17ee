package projectopstest_test

import (
	"bufio"
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// corkedAgent dials the fixture's relay as an agent whose messages of one
// Send go out in one write, as the SDK's host sends a response's parts.
func corkedAgent(t *testing.T, f *relayFixture) (*websocket.Conn, *tunnelwire.Writer) {
	t.Helper()
	up := &tunnelwire.UpgradeTransport{Base: f.tg.client.Transport}
	client := *f.tg.client
	client.Transport = up
	conn, _, err := websocket.Dial(t.Context(), f.relayURL, &websocket.DialOptions{HTTPClient: &client,
		HTTPHeader: http.Header{"Authorization": {"Bearer " + f.token}}, Subprotocols: []string{tunnelwire.Subprotocol}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.CloseNow() })
	conn.SetReadLimit(tunnelwire.MaxMessage)
	if _, _, err := conn.Read(t.Context()); err != nil { // hello
		t.Fatal(err)
	}
	return conn, tunnelwire.NewWriter(conn, up.Cork)
}

// nextReq reads the agent's messages up to the next req and returns its id.
func nextReq(t *testing.T, conn *websocket.Conn) uint32 {
	t.Helper()
	for {
		typ, msg, err := conn.Read(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if typ != websocket.MessageText {
			continue
		}
		if c, err := tunnelwire.DecodeControl(msg); err == nil && c.T == tunnelwire.Req {
			return c.ID
		}
	}
}

// A response that streams reaches the caller as it comes: what arrived is
// written before the edge waits for more.
func TestRelayStreamedResponseIsWrittenAsItComes(t *testing.T) {
	t.Parallel()
	f := newRelayFixture(t, true)
	conn, w := corkedAgent(t, f)
	id, resp, _ := streamFirstEvent(t, f, conn, w)
	defer resp.Body.Close()
	if err := w.Send(tunnelwire.Batch(nil).End(tunnelwire.ResEnd, id)); err != nil {
		t.Fatal(err)
	}
}

// streamFirstEvent relays a GET that the agent on conn answers as an SSE
// stream, sends one event and checks that it reaches the caller while the
// stream is open (the edge holds nothing back); it returns the stream's id,
// the response and a reader past the event.
func streamFirstEvent(t *testing.T, f *relayFixture, conn *websocket.Conn, w *tunnelwire.Writer) (uint32, *http.Response, *bufio.Reader) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	respCh := f.public(t.Context(), http.MethodGet, "", "", nil)
	id := nextReq(t, conn)
	if err := w.Send(tunnelwire.Batch(nil).Res(id, http.StatusOK, http.Header{"Content-Type": {"text/event-stream"}}).
		Chunk(tunnelwire.ResChunk, id, []byte("data: one\n\n"))); err != nil {
		t.Fatal(err)
	}
	var resp *http.Response
	select {
	case resp = <-respCh:
	case <-ctx.Done():
		t.Fatal("no head reached the caller while the response streams")
	}
	br := bufio.NewReader(resp.Body)
	if line, err := br.ReadString('\n'); err != nil || line != "data: one\n" {
		resp.Body.Close()
		t.Fatalf("first event %q, %v: the edge held what it had", line, err)
	}
	return id, resp, br
}
