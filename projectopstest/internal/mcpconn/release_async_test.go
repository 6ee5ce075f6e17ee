package mcpconn

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// go-sdk's Close sends a session DELETE and waits for its answer (bounded
// only by the close timeout). The service's disconnect is local (the
// TypeScript transport's close() aborts its fetches and sends no DELETE),
// so its answer never waits on the server: a per-operation lease's Release
// (the end of every servers answer; doctor/validate's Discard too) must
// not wait for a slow server's DELETE either. It closes in the background.
func TestReleaseDoesNotWaitForServersDelete(t *testing.T) {
	t.Parallel()
	srv := testServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	deleteIn := make(chan struct{}, 1)
	unblock := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			select {
			case deleteIn <- struct{}{}:
			default:
			}
			select {
			case <-unblock:
			case <-r.Context().Done():
			}
		}
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	// A long close timeout stands for "a slow server": Release must not wait on it.
	var deleteDone atomic.Bool
	d := NewDialer("mcpconn-test", "1.0.0", &http.Client{Transport: rtFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(r)
		if r.Method == http.MethodDelete {
			deleteDone.Store(true) // its answer came, or the client gave up on it
		}
		return resp, err
	})})
	d.ConnectTimeout = 5 * time.Second
	p := NewPool(context.Background(), d, time.Minute, 10*time.Minute)
	defer p.Close()
	l, err := p.Acquire(t.Context(), "k", Target{Transport: TransportHTTP, URL: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	echo(t, l.Conn)
	released := make(chan struct{})
	go func() { l.Release(false); close(released) }()
	guard := time.NewTimer(15 * time.Second) // a deadlock guard, not a timing bound
	defer guard.Stop()
	var blocked bool
	select {
	case <-released:
		blocked = deleteDone.Load()
	case <-guard.C:
		blocked = true
	}
	close(unblock)
	<-released
	if blocked {
		t.Errorf("Release returned only once the session DELETE's round trip had ended (go-sdk gave up on it): Release (the end of every per-operation answer) stayed blocked on the server's session DELETE; the service's disconnect never waits on the server")
	}
}

type rtFunc func(*http.Request) (*http.Response, error)

func (f rtFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
