package servers_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// A call whose context ends while the double is still connecting to the
// MCP server returns then, with the context's error: the first caller to
// need a session waits for the dial no longer than the callers that join
// it (it waited for the whole connect timeout).
func TestCancelDuringMCPDial(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer hang.Close()
	defer close(release)
	f := setup(t, projectopstest.WithMCPTimeout(time.Minute))
	p := f.WS.ProjectID
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "hang", TransportType: "http", URL: hang.URL}))
	c := f.Client(t, option.WithMaxRetries(0))
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := c.Servers.ListTools(ctx, p, id, nil); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want context.DeadlineExceeded", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ListTools still waiting for the dial 10 s after its context ended")
	}
}
