package mcpops

import (
	"context"
	"testing"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
)

// Run releases its lease on every path: an op that panics (net/http
// recovers a handler's panic and the double goes on serving) must not
// leave the operation's own session open for good, counted by
// MCPSessions forever.
func TestRunReleasesSessionOnPanic(t *testing.T) {
	t.Parallel()
	l := newLayer(t)
	sc := open(l, false)
	func() {
		defer func() { _ = recover() }()
		_ = sc.Run(t.Context(), true, func(context.Context, *mcpconn.Conn) error { panic("bug in an op") })
	}()
	if n := l.Sessions(); n != 0 {
		t.Errorf("Sessions = %d after an operation that panicked, want 0: its per-operation session was never closed", n)
	}
}
