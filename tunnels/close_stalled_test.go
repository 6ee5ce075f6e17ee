package tunnels_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/tunnels"
)

// A tunnel host that connected to the double's in-process relay and then
// stopped reading (a hung process) does not hold the double's Close for
// the WebSocket close handshake's 5 s: the relay cuts the connection after
// a short grace.
func TestCloseWithStalledTunnelHost(t *testing.T) {
	t.Parallel()
	srv, err := projectopstest.NewServer(projectopstest.WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	g, err := c.Tunnels.Create(t.Context(), srv.Default().ProjectID, tunnels.CreateParams{Name: "stalled"})
	if err != nil {
		t.Fatal(err)
	}
	conn, _, err := websocket.Dial(context.Background(), g.RelayWSURL, &websocket.DialOptions{HTTPClient: srv.Client(),
		HTTPHeader: http.Header{"Authorization": {"Bearer " + g.ConnectToken}}, Subprotocols: []string{tunnelwire.Subprotocol}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	time.Sleep(100 * time.Millisecond) // the relay session runs; the host never reads
	start := time.Now()
	_ = srv.Close()
	// Waiting on the host takes the close handshake's whole 5 s: anything
	// shorter shows the relay cut it, however slow the machine.
	if d := time.Since(start); d >= 5*time.Second {
		t.Fatalf("Server.Close took %v with a stalled tunnel host (the close handshake's 5 s)", d)
	}
}
