package projectopstest_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// In process a client URL's Opaque may hold a '?', so the request target
// and r.URL carry different queries: the relay forwards the query whose
// ?k= it checked, never the other.
func TestRelayInProcessRelaysTheQueryItChecked(t *testing.T) {
	t.Parallel()
	for _, loopback := range []bool{false, true} {
		f := newRelayFixture(t, loopback)
		a := f.dial(t)
		u := *f.publicU
		u.Path += "/x"
		u.Opaque = u.EscapedPath() + "?evil=1" // RawQuery keeps k=<secret>
		req, _ := http.NewRequestWithContext(t.Context(), "GET", f.publicU.String(), nil)
		req.URL = &u
		respc := f.do(req)
		select {
		case m := <-a.in:
			_, q, _ := strings.Cut(m.URL, "?")
			if q != f.publicU.RawQuery {
				t.Errorf("loopback=%v: relayed the query %q, not the one whose k was checked (%d bytes)",
					loopback, strings.Replace(q, f.publicU.Query().Get("k"), "<secret>", 1), len(f.publicU.RawQuery))
			}
			a.sendText(`{"t":"res","id":%d,"status":204,"headers":[]}`, m.ID)
			a.sendText(`{"t":"res_end","id":%d}`, m.ID)
			<-respc
		case resp := <-respc:
			resp.Body.Close() // refused, as over a socket: fine
		case <-time.After(10 * time.Second):
			t.Fatal("timeout")
		}
	}
}
