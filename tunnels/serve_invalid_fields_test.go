package tunnels_test

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// Node's http.request, which the service's agent hands a req to, throws
// on a header value with a control character other than tab
// (ERR_INVALID_CHAR), a header name or method that is not a token
// (ERR_INVALID_HTTP_TOKEN) and a path with a character outside
// U+0021–U+00FF (ERR_UNESCAPED_CHARACTERS), as on a character above
// U+00FF; net/http's server never hands a handler such a request, and
// ProxyTo's transport would refuse it, blaming the local server. Serve
// aborts it without calling the handler.
func TestServeRefusesWhatNodeRefuses(t *testing.T) {
	t.Parallel()
	var called atomic.Int32
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	serveOn(t, setup(t), e.grant(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		called.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	c := e.next(t)
	for i, msg := range []string{
		`{"t":"req","id":%d,"method":"GET","url":"/api/mcp/adapter-http/srv_1","headers":[["x-v","a\r\nx-injected: 1"]],"hasBody":false}`,
		`{"t":"req","id":%d,"method":"GET","url":"/api/mcp/adapter-http/srv_1","headers":[["x-v","a\u0000b"]],"hasBody":false}`,
		`{"t":"req","id":%d,"method":"GET","url":"/api/mcp/adapter-http/srv_1","headers":[["x-\u00e9","v"]],"hasBody":false}`,
		`{"t":"req","id":%d,"method":"GET","url":"/api/mcp/adapter-http/srv_1/a b","headers":[],"hasBody":false}`,
		`{"t":"req","id":%d,"method":"GET","url":"/api/mcp/adapter-http/srv_1/a\tb","headers":[],"hasBody":false}`,
		`{"t":"req","id":%d,"method":"GET","url":"/api/mcp/adapter-http/srv_1","headers":[["x v","v"]],"hasBody":false}`,
		`{"t":"req","id":%d,"method":"GET","url":"/api/mcp/adapter-http/srv_1","headers":[["x-v","a\u007fb"]],"hasBody":false}`,
		`{"t":"req","id":%d,"method":"G T","url":"/api/mcp/adapter-http/srv_1","headers":[],"hasBody":false}`,
	} {
		id := uint32(i + 1)
		c.send(fmt.Appendf(nil, msg, id))
		if r := c.response(id); r.abort != tunnelwire.AbortUpstreamError {
			t.Errorf("%s: %+v, want an upstream_error abort", msg, r)
		}
	}
	if n := called.Load(); n != 0 {
		t.Errorf("the handler was called %d times", n)
	}
}
