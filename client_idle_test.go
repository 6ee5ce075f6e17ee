package projectops_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"go.uber.org/goleak"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
)

// A client done with a server that stays up leaves no keep-alive
// goroutines behind once CloseIdleConnections is called.
func TestCloseIdleConnectionsLeavesNothing(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"items":[]}`))
	}))
	defer hs.Close()
	opts := []goleak.Option{goleak.IgnoreCurrent(), goleak.IgnoreAnyFunction("net/http.(*conn).serve")}
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithBaseURL(hs.URL+"/api/v1"),
		option.WithAPIKey("sk_test_000000000000000000000000"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Hosts.List(t.Context(), "prj_1", nil); err != nil {
		t.Fatal(err)
	}
	c.CloseIdleConnections()
	if err := goleak.Find(opts...); err != nil {
		t.Error(err)
	}
	if _, err := c.Hosts.List(t.Context(), "prj_1", nil); err != nil { // still usable
		t.Error(err)
	}
	c.CloseIdleConnections()
}

// A zero Client has nothing to close and does not panic, as BaseURL and
// String do not.
func TestCloseIdleConnectionsZeroClient(t *testing.T) {
	var c projectops.Client
	c.CloseIdleConnections()
}
