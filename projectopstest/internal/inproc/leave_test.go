package inproc

import (
	"net/http"
	"runtime"
	"testing"
)

// A handler on the caller's goroutine (an ordinary route) that ends it
// with runtime.Goexit (t.Fatal in a hook a test installed) still leaves:
// the server's Close would otherwise wait for it forever.
func TestSyncHandlerThatEndsItsGoroutineLeaves(t *testing.T) {
	h := &countingHost{host: host{ctx: t.Context(), h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runtime.Goexit()
	})}}
	tr := &Transport{Host: h, Closed: errClosed}
	done := make(chan struct{})
	go func() {
		defer close(done)
		req, _ := http.NewRequest(http.MethodGet, "http://double.test/ok", nil)
		_, _ = tr.RoundTrip(req)
	}()
	<-done
	if n := h.n.Load(); n != 0 {
		t.Errorf("requests still counted in flight after the handler's goroutine exited: %d", n)
	}
}
