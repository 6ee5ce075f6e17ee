package projectopstest

import (
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Tracking a relayed stream costs a request no allocation, over loopback
// or in process: the relay's handler registers its own connection, where
// deciding for every loopback request whether its route streams (dot
// segments resolved, the route looked up a second time) and tracking it
// under a context of its own cost each relayed request 16 allocations.
func TestLoopStreamsTrackingAllocs(t *testing.T) {
	var ls loopStreams
	r := httptest.NewRequest("GET", "/tunnels/abc/x?k=1", nil)
	reqs := map[string]*http.Request{
		"loopback":  r.WithContext(withConn(r.Context(), &closeConn{})),
		"inprocess": r,
	}
	ls.Started(reqs["loopback"]) // the set is made once, for the listener's life
	ls.Ended(reqs["loopback"])
	for name, req := range reqs {
		if n := testing.AllocsPerRun(100, func() { ls.Started(req); ls.Ended(req) }); n != 0 {
			t.Errorf("%s: tracking a stream costs %v allocations, want 0", name, n)
		}
	}
}

// Close cuts the connection of a stream answered before it began, and
// only that one: a stream already over, or one answered once Close has
// begun (it keeps the grace), is left alone.
func TestLoopStreamsCloseCutsAnswered(t *testing.T) {
	var ls loopStreams
	conns := map[string]*closeConn{}
	reqs := map[string]*http.Request{}
	for _, name := range []string{"answered", "ended", "late"} {
		conns[name] = &closeConn{}
		r := httptest.NewRequest("GET", "/tunnels/abc/x", nil)
		reqs[name] = r.WithContext(withConn(r.Context(), conns[name]))
	}
	ls.Started(reqs["answered"])
	ls.Started(reqs["ended"])
	ls.Ended(reqs["ended"])
	ls.close()
	ls.Started(reqs["late"])
	for name, want := range map[string]bool{"answered": true, "ended": false, "late": false} {
		if conns[name].closed != want {
			t.Errorf("%s: connection closed %v, want %v", name, conns[name].closed, want)
		}
	}
}

// closeConn is a connection that records its Close.
type closeConn struct {
	net.Conn
	closed bool
}

func (c *closeConn) Close() error {
	c.closed = true
	return nil
}
