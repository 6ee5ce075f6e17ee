package tunnels_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/projectops/projectops-go/tunnels"
)

type countingRT struct {
	n    atomic.Int32
	base *http.Transport
}

func (c *countingRT) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.base.RoundTrip(r)
}

// WithProxyTransport sends the local requests through the caller's
// transport, whose idle connections the caller can then close (those of
// http.DefaultTransport outlive Serve).
func TestProxyToUsesTheGivenTransport(t *testing.T) {
	t.Parallel()
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "local "+r.URL.Path)
	}))
	defer local.Close()
	rt := &countingRT{base: &http.Transport{}}
	defer rt.base.CloseIdleConnections()
	u, _ := url.Parse(local.URL + "/mcp")
	h, err := tunnels.ProxyTo(u, nil, tunnels.WithProxyTransport(rt))
	if err != nil {
		t.Fatal(err)
	}
	f := setup(t)
	g := create(t, f, "local")
	serve(t, f, g, h)
	if status, body := get(t, f, http.MethodGet, g.URL, ""); status != http.StatusOK || body != "local /mcp" {
		t.Fatalf("%d %q", status, body)
	}
	if rt.n.Load() != 1 {
		t.Errorf("the given transport made %d requests, want 1", rt.n.Load())
	}
}
