package tunnels_test

import (
	"bufio"
	"net/http"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

// An SSE stream a caller holds open through the double's in-process relay
// (go-sdk's standalone GET does this) does not hold the double's Close for
// ShutdownGrace: the grace is for requests not yet answered, and a stream
// whose response is committed is answered.
func TestCloseWithOpenInProcessSSEStream(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "sse")
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte("data: hi\n\n"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	serve(t, f, g, h)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, g.URL, nil)
	resp, err := f.Srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_ = f.Srv.Close()
	// Waiting for the stream takes the whole grace: anything shorter shows
	// Close did not, however slow the machine.
	if d := time.Since(start); d >= projectopstest.ShutdownGrace {
		t.Errorf("Close with an open in-process SSE stream took %v, the grace (%v)", d, projectopstest.ShutdownGrace)
	}
}
