package tunnels_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/projectops/projectops-go/tunnels"
)

// Serve over the double's in-process transport returns once the double is
// closed: the transport marks that failure backoff.Permanent, and
// redialling it for the whole reconnect budget (five minutes by default)
// held up every test that waits for Serve after Close.
func TestServeReturnsWhenTheInProcessDoubleCloses(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "x")
	connected := make(chan struct{}, 4)
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	go func() { done <- f.C.Tunnels.Serve(ctx, g, h, tunnels.OnConnect(func() { connected <- struct{}{} })) }()
	<-connected
	f.Srv.Close()
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
