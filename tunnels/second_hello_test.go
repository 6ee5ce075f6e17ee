package tunnels_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// A second hello in the middle of a session (an edge that misbehaves, or a
// hostile one) is ignored: here it would shrink the chunk size below what
// the handler has already buffered, and the handler's next Write panicked
// (a negative slice bound) and its response was cut short.
func TestSecondHelloMidResponse(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	wrote, resume := make(chan struct{}), make(chan struct{})
	panicked := make(chan any, 1)
	serveOn(t, f, e.grant(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			_, _ = io.WriteString(w, "quick")
			return
		}
		_, _ = io.WriteString(w, strings.Repeat("a", 100)) // buffered: below one chunk
		close(wrote)
		<-resume
		func() {
			defer func() { panicked <- recover() }()
			_, _ = io.WriteString(w, strings.Repeat("b", 100))
		}()
	}))
	c := e.next(t)
	c.req(1, http.MethodPost, "/api/mcp/adapter-http/srv_1", nil, nil)
	<-wrote
	c.send(tunnelwire.AppendHello(nil, "slug0001", tunnelwire.Limits{MaxReqBody: 10 << 20, Chunk: 10, MaxInflight: 32}))
	// Messages are handled in order: once stream 2 is answered, the
	// second hello has been taken in.
	c.req(2, http.MethodGet, "/api/mcp/adapter-http/srv_1", nil, nil)
	if r := c.response(2); r.body != "quick" {
		t.Fatalf("stream 2: %+v", r)
	}
	close(resume)
	if v := <-panicked; v != nil {
		t.Errorf("the handler's Write panicked after a second hello: %v", fmt.Sprint(v))
	}
	r := c.response(1)
	if r.abort != "" || r.status != http.StatusOK || len(r.body) != 200 {
		t.Errorf("stream 1 after a second hello: status %d, abort %q, %d body bytes, want 200 OK with 200 bytes",
			r.status, r.abort, len(r.body))
	}
}
