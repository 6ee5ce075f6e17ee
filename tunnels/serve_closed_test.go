package tunnels_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/tunnels"
)

// Serve over the double's in-process transport returns once the double is
// closed: the transport marks that failure backoff.Permanent, and
// redialling it for the whole reconnect budget (five minutes by default)
// held up every test that waits for Serve after Close.
func TestServeReturnsWhenTheInProcessDoubleCloses(t *testing.T) {
	t.Parallel()
	srv, err := projectopstest.NewServer(projectopstest.WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	g, err := c.Tunnels.Create(t.Context(), srv.Default().ProjectID, tunnels.CreateParams{Name: "x"})
	if err != nil {
		t.Fatal(err)
	}
	connected := make(chan struct{}, 4)
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	go func() { done <- c.Tunnels.Serve(ctx, g, h, tunnels.OnConnect(func() { connected <- struct{}{} })) }()
	<-connected
	srv.Close()
	select {
	case err := <-done:
		if err == nil || ctx.Err() != nil {
			t.Errorf("Serve = %v, want the closed double's error", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("Serve still redialling a closed double 10 s after Close")
		cancel()
		<-done
	}
}
