package tunnels

import (
	"context"
	"log/slog"
	"net/http"
	"testing"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// A req whose handler waits for its body is counted as running; a session
// that ends before the handler starts lets go of it, so the count does
// not grow across reconnects (each Serve's sessions share it) until every
// req is refused overloaded.
func TestSessionEndDropsPendingStreams(t *testing.T) {
	var handlers handlerSet
	for i := range 2 * runningPerInflight {
		// A Cork under the connection: a req with a body waits for it.
		s := newSession(nil, tunnelwire.NewCork(nil), http.NotFoundHandler(), slog.New(slog.DiscardHandler), &handlers)
		s.reqCtx = context.Background()
		s.limits = tunnelwire.Limits{MaxReqBody: 1 << 20, Chunk: 64 << 10, MaxInflight: 1}
		if n := handlers.running.Load(); n >= runningPerInflight {
			t.Fatalf("session %d starts with %d handlers counted as running, none started; want 0", i, n)
		}
		s.start(&tunnelwire.Control{T: tunnelwire.Req, ID: 1, Method: http.MethodPost,
			URL: "/api/mcp/adapter-http/srv_1", HasBody: true})
		if len(s.pending) != 1 {
			t.Fatalf("session %d: %d reqs wait for their body, want 1", i, len(s.pending))
		}
		s.endStreams()
	}
	if n := handlers.running.Load(); n != 0 {
		t.Errorf("%d handlers counted as running after every session ended, none started; want 0", n)
	}
}
