package mcpconn

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Len (MCPSessions) counts a per-operation session from the start of its
// dial, as it counts a kept one: an operation in progress against a server
// slow to initialize counts 1, as the docs (MCPSessions, docs/double.md)
// say, one per operation in progress.
func TestLenCountsPerCallSessionBeingDialed(t *testing.T) {
	t.Parallel()
	got := make(chan struct{}, 1)
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case got <- struct{}{}:
		default:
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer ts.Close()
	p := NewPool(context.Background(), testDialer(), time.Minute, time.Second)
	defer p.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		if l, err := p.Acquire(context.Background(), "k", Target{Transport: TransportHTTP, URL: ts.URL + "/sse"}); err == nil {
			l.Release(false)
		}
	}()
	<-got // the operation is in progress: its connect request (the SSE GET) reached the server
	n := p.Len()
	close(release)
	<-done
	if n != 1 {
		t.Errorf("Len while an operation's session is being dialed = %d, want 1 (a kept session counts while dialing)", n)
	}
}
