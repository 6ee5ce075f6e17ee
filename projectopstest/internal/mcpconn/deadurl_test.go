package mcpconn

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestDialDeadURLFailsFast: with reconnects off, a refused connection is
// Unreachable at once; go-sdk's default retries would outlast the connect
// timeout and surface as Timeout.
func TestDialDeadURLFailsFast(t *testing.T) {
	t.Parallel()
	for _, tr := range []string{TransportHTTP, TransportSSE} {
		t.Run(tr, func(t *testing.T) {
			t.Parallel()
			ts := httptest.NewServer(http.NotFoundHandler())
			url := ts.URL
			ts.Close()
			d := testDialer()
			d.ConnectTimeout = 20 * time.Second
			c, err := d.Dial(t.Context(), Target{Transport: tr, URL: url})
			if err == nil {
				c.Close()
				t.Fatal("Dial of a dead URL succeeded")
			}
			if f := Classify(err, nil, t.Context(), nil); f.Kind != Unreachable {
				t.Fatalf("kind = %d (%v), want Unreachable", f.Kind, err)
			}
		})
	}
}
