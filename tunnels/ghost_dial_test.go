package tunnels_test

import (
	"context"
	"math/rand/v2"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// A host whose dial is cancelled mid-upgrade, in process, leaves no relay
// session behind: the double's in-process transport closes a connection
// the relay hijacked for a client that is gone. Before, each such session
// served a pipe nobody read until the double closed (and, as the newest
// session, displaced the one before it).
func TestCancelledInProcessDialLeavesNoSession(t *testing.T) {
	f := setup(t)
	g := create(t, f, "ghost")
	hdr := http.Header{"Authorization": {"Bearer " + g.ConnectToken}}
	for range 300 {
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(rand.IntN(300))*time.Microsecond)
		conn, _, err := websocket.Dial(ctx, g.RelayWSURL, &websocket.DialOptions{
			HTTPClient: f.Srv.Client(), HTTPHeader: hdr, Subprotocols: []string{tunnelwire.Subprotocol}})
		if err == nil {
			_ = conn.CloseNow()
		}
		cancel()
	}
	// Sessions whose dial succeeded end as their connection closes.
	deadline := time.Now().Add(2 * time.Second) // a session stuck on its pipe is only freed by the next one replacing it, after a 5 s close handshake
	for {
		buf := make([]byte, 1<<22)
		stacks := string(buf[:runtime.Stack(buf, true)])
		n := strings.Count(stacks, "relay.(*Session).Run(")
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d relay sessions still running with no host", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
