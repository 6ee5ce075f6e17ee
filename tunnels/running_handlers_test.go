package tunnels_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// runningPerInflight is the package's cap on running handlers, per slot
// of the session's maxInflight (see the package doc).
const runningPerInflight = 4

// stuckHandler serves /mcp/probe at once and blocks every other request
// until release is closed, ignoring its context; started hears of each.
func stuckHandler(started chan<- struct{}, release <-chan struct{}) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mcp/probe" {
			return
		}
		started <- struct{}{}
		<-release
	})
}

// waitStarted waits for n handlers to start.
func waitStarted(t *testing.T, started <-chan struct{}, n int) {
	t.Helper()
	for i := range n {
		select {
		case <-started:
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of %d handlers started", i, n)
		}
	}
}

// Handlers whose streams the edge forgot but that ignore their context
// run on; at most runningPerInflight × maxInflight run at once, and a req
// past that is refused overloaded though the edge counts no stream.
func TestRunningHandlersCappedAfterEdgeAborts(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.Limits{MaxReqBody: 10 << 20, Chunk: 64 << 10, MaxInflight: 1})
	started, release := make(chan struct{}, 8), make(chan struct{})
	defer close(release)
	serveOn(t, f, e.grant(), stuckHandler(started, release))
	c := e.next(t)
	const limit = runningPerInflight * 1
	for id := range uint32(limit) {
		c.req(id+1, http.MethodGet, "/api/mcp/adapter-http/srv_1", nil, nil)
		waitStarted(t, started, 1)
		c.send(tunnelwire.AppendAbort(nil, id+1, tunnelwire.AbortClientGone, ""))
	}
	c.req(limit+1, http.MethodGet, "/api/mcp/adapter-http/srv_1/probe", nil, nil)
	if r := c.response(limit + 1); r.abort != tunnelwire.AbortOverloaded {
		t.Errorf("a req with %d handlers running that ignore their context: %+v, want an overloaded abort", limit, r)
	}
}

// An edge that reuses one id starts no more handlers than the cap: the
// reused stream leaves the edge's count at once, its handler does not.
// 10 reqs with id 1 ran 10 handlers under a cap of 2.
func TestReusedIDCountsAgainstRunningHandlers(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.Limits{MaxReqBody: 10 << 20, Chunk: 64 << 10, MaxInflight: 2})
	const limit, reqs = runningPerInflight * 2, runningPerInflight*2 + 2
	started, release := make(chan struct{}, reqs), make(chan struct{})
	defer close(release)
	serveOn(t, f, e.grant(), stuckHandler(started, release))
	c := e.next(t)
	for range reqs {
		c.req(1, http.MethodGet, "/api/mcp/adapter-http/srv_1", nil, nil)
	}
	// Messages are handled in order: once the probe ends every req above
	// has been taken in. (It is refused too: the cap is reached.)
	c.req(2, http.MethodGet, "/api/mcp/adapter-http/srv_1/probe", nil, nil)
	refused := 0
	for {
		m := c.control()
		if m.ID == 1 && m.T == tunnelwire.Abort && m.Code == tunnelwire.AbortOverloaded {
			refused++
		}
		if m.ID == 2 && (m.T == tunnelwire.ResEnd || m.T == tunnelwire.Abort) {
			break
		}
	}
	waitStarted(t, started, limit)
	if refused != reqs-limit {
		t.Errorf("%d reqs with one id, %d handlers ignoring their context may run: %d refused overloaded, want %d",
			reqs, limit, refused, reqs-limit)
	}
}
