package mcpops

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// doneCtx is a context of a type the context package does not know, so a
// child that is never cancelled shows as a goroutine watching it.
type doneCtx struct {
	context.Context
	done chan struct{}
}

func (c doneCtx) Done() <-chan struct{} { return c.done }

// A refresh releases the context it bounds itself with: each one left a
// child of the layer's context behind (a cancel overwritten, never called).
func TestRefreshReleasesItsContext(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"a","token_type":"bearer","refresh_token":"r","expires_in":3600}`))
	}))
	defer srv.Close()
	parent := doneCtx{Context: context.Background(), done: make(chan struct{})}
	defer close(parent.done)
	watchers := func() int {
		buf := make([]byte, 1<<20)
		return strings.Count(string(buf[:runtime.Stack(buf, true)]), "context.(*cancelCtx).propagateCancel")
	}
	c := &clockSource{now: time.Now, timeout: 5 * time.Second,
		ctx: context.WithValue(parent, oauth2.HTTPClient, srv.Client()),
		cfg: &oauth2.Config{Endpoint: oauth2.Endpoint{TokenURL: srv.URL}}, tok: &oauth2.Token{RefreshToken: "r"}}
	before := watchers()
	for range 5 {
		c.tok.Expiry = time.Now().Add(-time.Hour)
		if _, err := c.Token(); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(50 * time.Millisecond)
	if n := watchers() - before; n != 0 {
		t.Errorf("%d contexts still watch the layer's after 5 refreshes, want 0", n)
	}
}
