package projectopstest_test

import (
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/internal/tunnelwire"
	"github.com/projectops/projectops-go/projectopstest"
)

// TestNonReadingClientDropped: a client that pipelines requests and never
// reads the answers has its connection closed once a write has waited on
// it for the write timeout; without one it held the connection and its
// goroutine until Close.
func TestNonReadingClientDropped(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithWriteTimeout(100*time.Millisecond))
	c, prefix := dialRaw(t, srv) // its guard fails a server that never lets go
	_ = c.(*net.TCPConn).SetReadBuffer(4096)
	batch := []byte(strings.Repeat("GET "+prefix+"/host-catalog HTTP/1.1\r\nHost: x\r\n\r\n", 100))
	// The server stops reading while a write to us is blocked, so our
	// writes block too, until it closes the connection.
	for {
		_, err := c.Write(batch)
		if err == nil {
			continue
		}
		if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
			t.Fatalf("server still holds a client that has not read for %v", guard)
		}
		return // reset or closed by the server
	}
}

// TestStreamOutlivesWriteTimeout: the write timeout bounds a write, not a
// response: a relayed stream that pauses longer than it, to a caller that
// reads, goes on, as does the hijacked agent connection idle as long.
func TestStreamOutlivesWriteTimeout(t *testing.T) {
	t.Parallel()
	const timeout = 100 * time.Millisecond
	f := newRelayFixture(t, true, projectopstest.WithWriteTimeout(timeout))
	conn, w := corkedAgent(t, f)
	time.Sleep(3 * timeout) // the agent's connection idles past the timeout
	id, resp, br := streamFirstEvent(t, f, conn, w)
	defer resp.Body.Close()
	time.Sleep(3 * timeout) // the stream pauses past the timeout
	if err := w.Send(tunnelwire.Batch(nil).Chunk(tunnelwire.ResChunk, id, []byte("data: two\n\n")).
		End(tunnelwire.ResEnd, id)); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(br)
	if err != nil || string(rest) != "\ndata: two\n\n" {
		t.Errorf("after a pause of %v: %q, %v; want the second event", 3*timeout, rest, err)
	}
}
