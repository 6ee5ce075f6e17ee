package tunnels_test

import (
	"fmt"
	"io"
	"net/http"
	"testing"
)

// echo answers with what it received.
var echo = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	w.Header().Set("X-Echo-Method", r.Method)
	w.WriteHeader(http.StatusAccepted)
	fmt.Fprintf(w, "%s %s %s", r.Method, r.URL.RequestURI(), b)
})

func TestServeRelays(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	serve(t, f, g, echo)
	status, body := get(t, f, http.MethodPost, g.URL+"&x=1", "hello")
	if status != http.StatusAccepted || body != "POST /mcp?x=1 hello" {
		t.Fatalf("got %d %q", status, body)
	}
}
