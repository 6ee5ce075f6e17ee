package tunnels_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// A response head no HTTP edge can write (a control character in a header
// value, which Node's setHeader refuses; a status over 999) is aborted by
// the host itself, upstream_error, and its request cancelled: an edge that
// forgets such a stream without a word would otherwise leave the handler
// running and counted against maxInflight.
func TestHostAbortsHeadNoEdgeCanWrite(t *testing.T) {
	t.Parallel()
	for name, write := range map[string]func(w http.ResponseWriter){
		"control character": func(w http.ResponseWriter) { w.Header()["X-Bad"] = []string{"a\x01b"} },
		"status over 999":   func(w http.ResponseWriter) { w.WriteHeader(1000) },
	} {
		t.Run(name, func(t *testing.T) { hostAbortsHead(t, write) })
	}
}

func hostAbortsHead(t *testing.T, write func(w http.ResponseWriter)) {
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	ctxErr := make(chan error, 1)
	serveOn(t, f, e.grant(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		write(w)
		w.(http.Flusher).Flush()
		select { // an SSE stream: ends when its caller goes away
		case <-r.Context().Done():
		case <-time.After(3 * time.Second): // only keeps a broken host from hanging the test
		}
		ctxErr <- r.Context().Err()
	}))
	c := e.next(t)
	c.send(tunnelwire.AppendReq(nil, 1, http.MethodGet, "/api/mcp/adapter-http/srv_1", nil, false, true))
	// This edge, like one that cannot write the head, answers nothing back.
	if r := c.response(1); r.abort != tunnelwire.AbortUpstreamError {
		t.Errorf("a head no edge can write: %+v; want the host to abort it upstream_error", r)
	}
	if err := <-ctxErr; err == nil {
		t.Error("the handler's context was never cancelled: its stream stays counted until it returns")
	}
}
