package projectopstest_test

import (
	"context"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

// Close from inside the server's own work (here a WithHostCatalogSource
// callback, which a request waits on) is documented to deadlock when
// called there directly; on a goroutine of its own, as Close's doc says,
// it closes the server: the request in flight returns and Close ends.
func TestCloseOnItsOwnGoroutineFromInsideTheServersWork(t *testing.T) {
	t.Parallel()
	var srv *projectopstest.Server
	closed := make(chan struct{})
	srv, err := projectopstest.NewServer(projectopstest.WithRateLimit(0, 0),
		projectopstest.WithHostCatalogSource(func(ctx context.Context) ([]byte, error) {
			go func() { _ = srv.Close(); close(closed) }()
			return []byte(`{"hosts":[]}`), nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	called := make(chan struct{})
	go func() { _, _ = c.Catalog.HostCatalog(context.Background()); close(called) }()
	for _, w := range []struct {
		what string
		done chan struct{}
	}{{"the request", called}, {"Close", closed}} {
		select {
		case <-w.done:
		case <-time.After(projectopstest.ShutdownGrace + 3*time.Second):
			t.Fatalf("%s did not return after a Close on its own goroutine from inside the server's work", w.what)
		}
	}
	if _, err := c.Catalog.HostCatalog(t.Context()); err == nil {
		t.Error("a call after Close succeeded")
	}
}
