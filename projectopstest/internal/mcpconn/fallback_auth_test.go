package mcpconn

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// The service's client manager classifies an auth failure from EITHER
// attempt (isAuthError(streamableError) || isAuthError(sseError)): a
// Streamable HTTP 401 stays an MCPAuthError even when the SSE attempt then
// fails some other way, a timeout included (a modern-only server whose GET
// opens an event stream that never names an endpoint, the shape the
// service's own comments call common). The connect timer must not win
// over the 401: that would be 504 TIMEOUT instead of 401 OAUTH_REQUIRED.
func TestFallbackKeeps401WhenSSEHangs(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="x"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer ts.Close()
	d := testDialer()
	d.ConnectTimeout = time.Second
	_, err := d.Dial(t.Context(), Target{Transport: TransportHTTP, URL: ts.URL + "/mcp"})
	f := Classify(err, nil, context.Background(), nil)
	if f.Kind != AuthRequired {
		t.Errorf("Streamable 401 then a silent SSE stream: kind %v (ErrConnectTimeout: %v), err %v; want AuthRequired (401), as the service's manager keeps the Streamable attempt's auth failure",
			f.Kind, errors.Is(err, ErrConnectTimeout), err)
	}
}
